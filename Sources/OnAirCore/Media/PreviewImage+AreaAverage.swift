extension PreviewImage {
    /// The mean colour of the source pixels that target pixel (`x`, `y`) of a `width`×`height` picture covers.
    ///
    /// Why area-averaged and not the nearest pixel: shrinking a picture for preview cells keeps one source
    /// pixel in ten or more, so thin strokes (the test pattern's digits) vanish or flicker from frame to frame;
    /// the mean keeps them as a readable shade. Upscaling (fewer source pixels than target) takes the one
    /// pixel under the target's centre.
    public func areaAverage(x: Int, y: Int, width targetWidth: Int, height targetHeight: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        guard width > 0, height > 0, targetWidth > 0, targetHeight > 0 else { return (0, 0, 0) }
        let columns = Self.span(x, of: targetWidth, over: width), rows = Self.span(y, of: targetHeight, over: height)
        let mean = rgb.withUnsafeBufferPointer { Self.mean(of: $0, stride: width, columns: columns, rows: rows) }
        return (mean.red, mean.green, mean.blue)
    }

    /// The mean colour of the pixels in `columns` × `rows` (half-open, never empty) of packed RGB rows
    /// `stride` pixels wide.
    static func mean(of source: UnsafeBufferPointer<UInt8>, stride: Int, columns: (Int, Int), rows: (Int, Int)) -> RGB {
        var red = 0, green = 0, blue = 0
        for row in rows.0..<rows.1 {
            var index = (row * stride + columns.0) * 3
            for _ in columns.0..<columns.1 {
                red += Int(source[index])
                green += Int(source[index + 1])
                blue += Int(source[index + 2])
                index += 3
            }
        }
        let count = (rows.1 - rows.0) * (columns.1 - columns.0)
        return RGB(UInt8((red + count / 2) / count), UInt8((green + count / 2) / count), UInt8((blue + count / 2) / count))
    }

    /// The source range target index `index` of `targets` covers in `sources` pixels: at least one pixel.
    static func span(_ index: Int, of targets: Int, over sources: Int) -> (Int, Int) {
        let clamped = min(max(index, 0), targets - 1)
        let start = clamped * sources / targets
        let end = (clamped + 1) * sources / targets
        if end > start { return (start, end) }
        let centre = min(sources - 1, (clamped * 2 + 1) * sources / (targets * 2))
        return (centre, centre + 1)
    }
}
