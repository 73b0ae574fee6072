import OnAirCore

/// A colour picture drawn with the upper half block `▀`: each cell shows two pixels, the top one as the
/// foreground and the bottom one as the background, which makes pixels roughly square in a terminal.
///
/// The picture is scaled to fit the area with its aspect ratio kept (area-averaged: each cell half is the
/// mean of the pixels it covers, so thin strokes stay visible), and centred.
public struct PreviewView: Widget {
    public var image: PreviewImage?
    /// Shown when there is no picture (preview off, nothing decoded yet).
    public var placeholder: String

    public init(_ image: PreviewImage?, placeholder: String = "no picture") {
        self.image = image
        self.placeholder = placeholder
    }

    /// The cell size the picture takes in `area`: width in columns, height in rows (2 pixels each).
    public static func fittedSize(imageWidth: Int, imageHeight: Int, in area: Rect) -> (columns: Int, rows: Int) {
        guard imageWidth > 0, imageHeight > 0, !area.isEmpty else { return (0, 0) }
        let maxPixelRows = area.height * 2
        var columns = area.width
        var pixelRows = columns * imageHeight / imageWidth
        if pixelRows > maxPixelRows {
            pixelRows = maxPixelRows
            columns = max(1, pixelRows * imageWidth / imageHeight)
        }
        return (min(columns, area.width), max(1, min(area.height, (pixelRows + 1) / 2)))
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        guard let image, image.width > 0, image.height > 0 else {
            let text = DisplayWidth.truncate(placeholder, to: area.width)
            let spot = area.centered(width: DisplayWidth.of(text), height: 1)
            buffer.write(text, in: spot, style: theme[.previewPlaceholder])
            return
        }
        let size = Self.fittedSize(imageWidth: image.width, imageHeight: image.height, in: area)
        let target = area.centered(width: size.columns, height: size.rows)
        let pixelRows = size.rows * 2
        for row in 0..<size.rows {
            for column in 0..<size.columns {
                let top = Self.quantized(image.areaAverage(x: column, y: row * 2, width: size.columns, height: pixelRows))
                let bottom = Self.quantized(image.areaAverage(x: column, y: row * 2 + 1, width: size.columns, height: pixelRows))
                let style = Style(
                    foreground: .rgb(top.red, top.green, top.blue),
                    background: .rgb(bottom.red, bottom.green, bottom.blue)
                )
                buffer.put("▀", x: target.x + column, y: target.y + row, style: style, clip: target)
            }
        }
    }

    /// Each channel to the nearest of 16 levels, 0, 17, … 255 (pure colours stay pure). Why: the terminal is sent only the cells
    /// whose colours changed, and an encoder's noise shifts averaged colours by a few units every frame;
    /// 16 levels keep a still picture still on the wire (≤ 10 kB/s at 80×24) and the pattern's digits legible.
    static func quantized(_ colour: (red: UInt8, green: UInt8, blue: UInt8)) -> (red: UInt8, green: UInt8, blue: UInt8) {
        func level(_ value: UInt8) -> UInt8 { UInt8((Int(value) + 8) / 17 * 17) }
        return (level(colour.red), level(colour.green), level(colour.blue))
    }
}
