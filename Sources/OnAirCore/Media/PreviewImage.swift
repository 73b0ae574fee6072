/// A small RGB picture for the terminal preview: produced by the media engine (camera preview or a
/// decoded subscriber frame), drawn by the console as quadrant-block cells.
public struct PreviewImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Packed 8-bit R, G, B triples, row by row, `width * height * 3` bytes.
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3, "rgb must hold width*height*3 bytes")
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The colour at (x, y); callers stay inside the picture.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let index = (y * width + x) * 3
        return (rgb[index], rgb[index + 1], rgb[index + 2])
    }
}
