extension PreviewImage {
    /// The mean colour of the source pixels that target pixel (`x`, `y`) of a `width`×`height` picture covers.
    ///
    /// Why area-averaged and not the nearest pixel: shrinking a picture for half-block cells keeps one source
    /// pixel in ten or more, so thin strokes (the test pattern's digits) vanish or flicker from frame to frame;
    /// the mean keeps them as a readable shade. Upscaling (fewer source pixels than target) takes the one
    /// pixel under the target's centre.
    public func areaAverage(x: Int, y: Int, width targetWidth: Int, height targetHeight: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        guard width > 0, height > 0, targetWidth > 0, targetHeight > 0 else { return (0, 0, 0) }
        let (left, right) = Self.span(x, of: targetWidth, over: width)
        let (top, bottom) = Self.span(y, of: targetHeight, over: height)
        var sums = (0, 0, 0)
        for row in top..<bottom {
            for column in left..<right {
                let index = (row * width + column) * 3
                sums.0 += Int(rgb[index])
                sums.1 += Int(rgb[index + 1])
                sums.2 += Int(rgb[index + 2])
            }
        }
        let count = (bottom - top) * (right - left)
        return (UInt8((sums.0 + count / 2) / count), UInt8((sums.1 + count / 2) / count), UInt8((sums.2 + count / 2) / count))
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
