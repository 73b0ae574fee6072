import OnAirCore

/// The grainy variant of the test pattern (`--video grain`): moving grain over the colour bars, a picture
/// that fills whatever bitrate the encoder is given, as a camera's sensor noise does.
///
/// Why: the plain pattern is flat colour and block digits; x264 codes it in far less than a broadcast's
/// bitrate (a 2500k target at 1080p produced about 710 kbit/s), so a rate test on it never loads the link it
/// means to test, and adaptive bitrate never learns anything. Grain is what makes a real picture expensive:
/// low-amplitude noise that the encoder codes at a low quantizer and smooths away at a high one, so rate
/// control spends exactly its target. It stays on the bars (the top fifth): the frame marker, the counter
/// and the clock are drawn over or below it and read as before.
extension TestPattern {
    /// Consecutive frames use different tiles, so there is nothing to predict from the previous frame
    /// (x264's fast presets keep one reference); a prime count keeps the cycle off the GOP's.
    static let grainTileCount = 7
    /// Luma swing of the grain around each bar's level: ± this much.
    static let grainAmplitude = 20

    /// The bars' luma rows with grain, one plane of `rows` × `width` per tile: made once, copied per frame,
    /// so grain costs a memory copy and not a random number per pixel per frame.
    static func grainTiles(barRow: [UInt8], width: Int, rows: Int) -> [[UInt8]] {
        var generator = SplitMix64(state: 0x6f6e_6169_725f_6772)
        return (0..<grainTileCount).map { _ in
            var tile = [UInt8](repeating: 0, count: width * rows)
            for y in 0..<rows {
                for x in 0..<width {
                    let swing = Int(generator.next() % UInt64(2 * grainAmplitude + 1)) - grainAmplitude
                    tile[y * width + x] = UInt8(clamping: Int(barRow[x]) + swing)
                }
            }
            return tile
        }
    }
}
