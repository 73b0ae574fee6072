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
        guard columns > 0, rows > 0, width > 0, height > 0 else { return [] }
        let xSpans = (0..<(columns * 2)).map { Self.span($0, of: columns * 2, over: width) }
        let ySpans = (0..<(rows * 2)).map { Self.span($0, of: rows * 2, over: height) }
        return rgb.withUnsafeBufferPointer { source in
            func pixel(_ x: Int, _ y: Int) -> RGB { Self.mean(of: source, stride: width, columns: xSpans[x], rows: ySpans[y]) }
            return (0..<rows).map { row in
                (0..<columns).map { column in
                    let x = column * 2, y = row * 2
                    return Self.quadrantCell((pixel(x, y), pixel(x + 1, y), pixel(x, y + 1), pixel(x + 1, y + 1)))
                }
            }
        }
    }

    /// The cell for four pixels (top left, top right, bottom left, bottom right).
    static func quadrantCell(_ pixels: (RGB, RGB, RGB, RGB)) -> QuadrantCell {
        let lumas = (pixels.0.luma, pixels.1.luma, pixels.2.luma, pixels.3.luma)
        let low = min(min(lumas.0, lumas.1), min(lumas.2, lumas.3))
        let high = max(max(lumas.0, lumas.1), max(lumas.2, lumas.3))
        guard high - low >= quadrantSplitThreshold else {
            let (a, b, c, d) = pixels
            let red = (Int(a.red) + Int(b.red) + Int(c.red) + Int(d.red) + 2) / 4
            let green = (Int(a.green) + Int(b.green) + Int(c.green) + Int(d.green) + 2) / 4
            let blue = (Int(a.blue) + Int(b.blue) + Int(c.blue) + Int(d.blue) + 2) / 4
            return uniformCell(RGB(UInt8(red), UInt8(green), UInt8(blue)).quantized)
        }
        let middle = (low + high + 1) / 2
        var mask: UInt8 = 0
        if lumas.0 >= middle { mask |= 0b0001 }
        if lumas.1 >= middle { mask |= 0b0010 }
        if lumas.2 >= middle { mask |= 0b0100 }
        if lumas.3 >= middle { mask |= 0b1000 }
        // The extremes, not the means: a pixel half covered by a stroke would otherwise pull the stroke's
        // colour to a grey that changes with every frame's blur.
        func extreme(_ luma: Int) -> RGB {
            luma == lumas.0 ? pixels.0 : luma == lumas.1 ? pixels.1 : luma == lumas.2 ? pixels.2 : pixels.3
        }
        let lightest = extreme(high).quantized, darkest = extreme(low).quantized
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
}
