import CFFmpeg

/// libav return codes: negative AVERROR values are errors, anything else passes through.
@discardableResult
func check(_ result: Int32, _ function: String) throws(MediaError) -> Int32 {
    guard result < 0 else { return result }
    throw .libav(function: function, code: result, message: avErrorMessage(result))
}

/// The text of an AVERROR code (`av_err2str` is a macro Swift cannot import).
func avErrorMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    return buffer.withUnsafeMutableBufferPointer { pointer in
        String(cString: onair_av_err2str(code, pointer.baseAddress, pointer.count))
    }
}
