import OnAirCore

/// A colour picture drawn in quadrant blocks (`▖▗▘▝▚▞▙▛▜▟…`): each cell shows 2×2 pixels in two colours,
/// which keeps pixels roughly square in a terminal and doubles the width resolution of half blocks.
///
/// The picture is scaled to fit the area with its aspect ratio kept (area-averaged, then split per cell into
/// a light and a dark group: see `PreviewImage.quadrantCells`), and centred. With a `timecode`, large block
/// digits (`BlockDigits`) stand beside the picture when the area has the columns for them: the time on air
/// or the frame number read from the picture, legible where the picture itself is a few cells tall.
public struct PreviewView: Widget {
    public var image: PreviewImage?
    /// Shown when there is no picture (preview off, nothing decoded yet).
    public var placeholder: String
    /// Digits and colons drawn large beside the picture, or nil.
    public var timecode: String?

    public init(_ image: PreviewImage?, placeholder: String = "no picture", timecode: String? = nil) {
        self.image = image
        self.placeholder = placeholder
        self.timecode = timecode
    }

    /// The cell size the picture takes in `area`: width in columns, height in rows (2 pixels each way per
    /// cell, a cell being about twice as tall as wide).
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

    /// Where the picture and the timecode go in `area`: the picture fitted to what the timecode leaves, the
    /// two centred together; no timecode when it would leave the picture under half the area's width.
    static func placement(image: PreviewImage, timecode: String?, in area: Rect) -> (picture: Rect, timecode: Rect?, scale: Int) {
        let full = fittedSize(imageWidth: image.width, imageHeight: image.height, in: area)
        if let timecode, !timecode.isEmpty {
            for scale in [2, 1] {
                let digits = BlockDigits.size(of: timecode, scale: scale)
                guard digits.rows <= area.height, area.width - digits.columns >= area.width / 2 else { continue }
                var left = area
                left.width = area.width - digits.columns
                let size = fittedSize(imageWidth: image.width, imageHeight: image.height, in: left)
                // Scale 2 only where it costs the picture nothing it needs: the picture keeps its full size.
                if scale == 2, size.columns < full.columns { continue }
                let both = area.centered(width: size.columns + digits.columns, height: area.height)
                let picture = Rect(x: both.x, y: area.y + (area.height - size.rows) / 2, width: size.columns, height: size.rows)
                let spot = Rect(x: picture.maxX, y: area.y + (area.height - digits.rows) / 2, width: digits.columns, height: digits.rows)
                return (picture, spot, scale)
            }
        }
        return (area.centered(width: full.columns, height: full.rows), nil, 1)
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        guard let image, image.width > 0, image.height > 0 else {
            let text = DisplayWidth.truncate(placeholder, to: area.width)
            let spot = area.centered(width: DisplayWidth.of(text), height: 1)
            buffer.write(text, in: spot, style: theme[.previewPlaceholder])
            return
        }
        let place = Self.placement(image: image, timecode: timecode, in: area)
        let target = place.picture
        for (row, cells) in image.quadrantCells(columns: target.width, rows: target.height).enumerated() {
            for (column, cell) in cells.enumerated() {
                let style = Style(
                    foreground: .rgb(cell.foreground.red, cell.foreground.green, cell.foreground.blue),
                    background: .rgb(cell.background.red, cell.background.green, cell.background.blue)
                )
                buffer.put(QuadrantGlyph.character(cell.mask), x: target.x + column, y: target.y + row, style: style, clip: target)
            }
        }
        if let spot = place.timecode, let timecode {
            BlockDigits(timecode, scale: place.scale).render(in: spot, into: &buffer, theme: theme)
        }
    }
}
