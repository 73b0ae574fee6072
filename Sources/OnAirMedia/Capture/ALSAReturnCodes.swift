import CALSA

/// ALSA return codes: negative errno values are errors, anything else passes through.
@discardableResult
func check<Result: BinaryInteger>(alsa result: Result, _ function: String) throws(MediaError) -> Result {
    guard result < 0 else { return result }
    let code = Int32(truncatingIfNeeded: result)
    throw .alsa(function: function, code: code, message: String(cString: snd_strerror(code)))
}
