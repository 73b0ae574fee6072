/// The video encoder's rate, changed between frames while the broadcast runs (adaptive bitrate).
///
/// `bitrate` goes to x264's rate control (bit_rate, VBV max rate and a one-second VBV buffer);
/// `framesPerSecond` at or above the source's rate encodes every picture, below it drops pictures evenly
/// before the encoder (the source and its clock keep their rate); 0 sends no video (audio-only).
public struct VideoRate: Sendable, Equatable {
    public var bitrate: Int
    public var framesPerSecond: Double

    public init(bitrate: Int, framesPerSecond: Double) {
        self.bitrate = bitrate
        self.framesPerSecond = framesPerSecond
    }
}
