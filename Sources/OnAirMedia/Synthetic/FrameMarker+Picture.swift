/// Writing the marker's blocks into a luma plane and reading them back from a decoded one.
extension FrameMarker {
    static let black: UInt8 = 16
    static let white: UInt8 = 235
    /// The sync blocks must differ by at least this much, or the row is not a marker (a picture without one).
    static let minimumContrast = 60

    /// Paints the block row over the top `bandHeight` rows of a tightly packed luma plane.
    public func draw(into luma: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int) {
        let rows = min(height, FrameMarker.bandHeight(pictureHeight: height))
        for (index, isWhite) in blocks.enumerated() {
            let left = FrameMarker.blockLeft(index, width: width)
            let right = FrameMarker.blockLeft(index + 1, width: width)
            let value = isWhite ? FrameMarker.white : FrameMarker.black
            for y in 0..<rows {
                for x in left..<right { luma[y * width + x] = value }
            }
        }
    }

    /// Reads the marker from a luma plane (`stride` bytes per row), or nil when there is none or it is damaged.
    ///
    /// Each block is the mean of its middle half (away from edges the encoder blurs); the threshold is the
    /// midpoint of the two sync blocks, so a picture darkened or brightened by the encoder still reads.
    public static func read(luma: UnsafeBufferPointer<UInt8>, stride: Int, width: Int, height: Int) -> FrameMarker? {
        let rows = bandHeight(pictureHeight: height)
        guard width >= blockCount * 2, height >= rows, stride >= width, luma.count >= (rows - 1) * stride + width else { return nil }
        let top = rows / 4, bottom = max(top + 1, rows - rows / 4)
        let means = (0..<blockCount).map { index -> Int in
            let left = blockLeft(index, width: width), right = blockLeft(index + 1, width: width)
            let inset = (right - left) / 4
            let from = left + inset, to = max(from + 1, right - inset)
            var sum = 0
            for y in top..<bottom {
                for x in from..<to { sum += Int(luma[y * stride + x]) }
            }
            return sum / ((bottom - top) * (to - from))
        }
        guard means[0] - means[1] >= minimumContrast else { return nil }
        let threshold = (means[0] + means[1]) / 2
        return FrameMarker(blocks: means.map { $0 > threshold })
    }
}
