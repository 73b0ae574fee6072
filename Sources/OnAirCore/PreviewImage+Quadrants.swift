extension PreviewImage {
    /// One terminal cell of a quadrant-block picture: four pixels (2×2) in two colours. Bit 0 is the top
    /// left pixel, 1 top right, 2 bottom left, 3 bottom right; a set bit shows `foreground`, a clear one
    /// `background`.
    public struct QuadrantCell: Sendable, Equatable {
        public var mask: UInt8
        public var foreground: RGB
        public var background: RGB

        public init(mask: UInt8, foreground: RGB, background: RGB) {
            self.mask = mask
            self.foreground = foreground
            self.background = background
        }
    }

    public struct RGB: Sendable, Equatable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// BT.601 luma, 0–255.
        public var luma: Int { (Int(red) * 299 + Int(green) * 587 + Int(blue) * 114) / 1000 }

        /// Each channel to the nearest level of the 256-colour palette's 6×6×6 cube (0, 95, 135, 175, 215,
        /// 255). Why: the console's terminals show that cube, so nothing finer reaches the screen, and the
        /// fewer the levels, the rarer an encoder's noise tips a colour into the next one — each such flip
        /// is a colour change sent to the terminal (≤ 10 kB/s at 80×24).
        public var quantized: RGB { RGB(Self.cubeLevel(red), Self.cubeLevel(green), Self.cubeLevel(blue)) }

        static func cubeLevel(_ value: UInt8) -> UInt8 {
            switch value {
            case ..<48: 0
            case ..<115: 95
            case ..<155: 135
            case ..<195: 175
            case ..<235: 215
            default: 255
            }
        }
    }

    /// Below this luma spread a cell's four pixels are one colour: splitting them would only draw noise.
    static let quadrantSplitThreshold = 40

    /// The picture as `columns`×`rows` quadrant cells (2×2 area-averaged pixels each).
    ///
    /// Why quadrants and not half blocks: a cell then carries two pixels across as well as two down, which
    /// doubles the width resolution of a preview a few cells tall — the strokes of the pattern's counter
    /// stay strokes instead of becoming grey. Each cell splits its pixels at the midpoint of their luma into
    /// a light and a dark group, shown in the lightest and darkest pixel's colour (quantised to the
    /// palette's cube), which re-sharpens edges the averaging softened.
    ///
    /// Why each cell's form depends on that cell alone: the terminal is sent only the cells that changed,
    /// so a cell must not change because its neighbour did (a form borrowed from the left neighbour made a
    /// moving bar repaint the rest of its row). And why light on dark, one-colour cells included: the
    /// counter's white-on-black cells then share one colour pair and repaint as bare glyphs, a few bytes
    /// each (≤ 10 kB/s at 80×24).
    public func quadrantCells(columns: Int, rows: Int) -> [[QuadrantCell]] {
        guard columns > 0, rows > 0 else { return [] }
        let pixelColumns = columns * 2, pixelRows = rows * 2
        func pixelRow(_ y: Int) -> [RGB] {
            (0..<pixelColumns).map { x in
                let mean = areaAverage(x: x, y: y, width: pixelColumns, height: pixelRows)
                return RGB(mean.red, mean.green, mean.blue)
            }
        }
        return (0..<rows).map { row in
            let top = pixelRow(row * 2), bottom = pixelRow(row * 2 + 1)
            var cells: [QuadrantCell] = []
            cells.reserveCapacity(columns)
            for column in 0..<columns {
                let x = column * 2
                cells.append(Self.quadrantCell((top[x], top[x + 1], bottom[x], bottom[x + 1])))
            }
            return cells
        }
    }

    /// The cell for four pixels (top left, top right, bottom left, bottom right).
    static func quadrantCell(_ pixels: (RGB, RGB, RGB, RGB)) -> QuadrantCell {
        let all = [pixels.0, pixels.1, pixels.2, pixels.3]
        let lumas = all.map(\.luma)
        let low = lumas.min() ?? 0, high = lumas.max() ?? 0
        guard high - low >= quadrantSplitThreshold else { return uniformCell(mean(of: all, mask: 0b1111).quantized) }
        let middle = (low + high + 1) / 2
        var mask: UInt8 = 0
        for (index, luma) in lumas.enumerated() where luma >= middle { mask |= 1 << UInt8(index) }
        // The extremes, not the means: a pixel half covered by a stroke would otherwise pull the stroke's
        // colour to a grey that changes with every frame's blur.
        let lightest = all[lumas.firstIndex(of: high) ?? 0].quantized
        let darkest = all[lumas.firstIndex(of: low) ?? 0].quantized
        if lightest == darkest { return uniformCell(lightest) }
        return QuadrantCell(mask: mask, foreground: lightest, background: darkest)
    }

    /// A one-colour cell in the form that shares its colour pair with the strokes around it: a light colour
    /// as a full block on black, a dark one as a space under white — so white-on-black text repaints as
    /// bare glyphs.
    static func uniformCell(_ colour: RGB) -> QuadrantCell {
        colour.luma >= 128 ? QuadrantCell(mask: 0b1111, foreground: colour, background: RGB(0, 0, 0))
            : QuadrantCell(mask: 0, foreground: RGB(255, 255, 255), background: colour)
    }

    /// The mean of the pixels whose bit is set in `mask`.
    private static func mean(of pixels: [RGB], mask: UInt8) -> RGB {
        var sums = (0, 0, 0), count = 0
        for (index, pixel) in pixels.enumerated() where mask >> UInt8(index) & 1 == 1 {
            sums.0 += Int(pixel.red)
            sums.1 += Int(pixel.green)
            sums.2 += Int(pixel.blue)
            count += 1
        }
        guard count > 0 else { return RGB(0, 0, 0) }
        return RGB(UInt8((sums.0 + count / 2) / count), UInt8((sums.1 + count / 2) / count), UInt8((sums.2 + count / 2) / count))
    }
}
