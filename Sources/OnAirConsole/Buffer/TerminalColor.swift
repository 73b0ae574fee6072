/// A colour as a theme names it. The terminal backend maps it down to what the terminal can show
/// (256 colours, 8 colours or none), so themes can be written once in full colour.
public enum TerminalColor: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The terminal's own foreground or background: respects the user's terminal palette.
    case `default`
    /// One of the 16 ANSI colours (0–7 normal, 8–15 bright).
    case ansi(UInt8)
    /// An xterm 256-colour palette index.
    case indexed(UInt8)
    /// A 24-bit colour; shown as the nearest palette entry.
    case rgb(UInt8, UInt8, UInt8)

    /// The eight ANSI names in palette order; themes spell colours with these.
    public static let ansiNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    public var description: String {
        switch self {
        case .default: "default"
        case .ansi(let n) where n < 8: Self.ansiNames[Int(n)]
        case .ansi(let n): "bright-" + Self.ansiNames[Int(n % 8)]
        case .indexed(let n): "color\(n)"
        case .rgb(let r, let g, let b): "#" + [r, g, b].map { Self.hex($0) }.joined()
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// The xterm-256 palette index (nil for `.default`).
    public var paletteIndex: Int? {
        switch self {
        case .default: nil
        case .ansi(let n): Int(n & 0x0F)
        case .indexed(let n): Int(n)
        case .rgb(let r, let g, let b): Self.nearest256(r, g, b)
        }
    }

    /// The nearest of the eight basic colours (nil for `.default`), for 8-colour terminals.
    public var basicIndex: Int? {
        switch self {
        case .default: return nil
        case .ansi(let n): return Int(n % 8)
        case .indexed(let n) where n < 16: return Int(n % 8)
        case .indexed(let n):
            let (r, g, b) = Self.rgbOf(index: Int(n))
            return Self.nearestBasic(r, g, b)
        case .rgb(let r, let g, let b): return Self.nearestBasic(Int(r), Int(g), Int(b))
        }
    }

    /// True for a colour of the grey ramp (or a grey RGB) lighter than black: on 8 colours it has no
    /// nearest colour that stays visible on a black background.
    public var isGrey: Bool {
        switch self {
        case .indexed(let n): return n >= 232 || n == 8
        case .ansi(let n): return n == 8
        case .rgb(let r, let g, let b): return r == g && g == b && r > 24
        case .default: return false
        }
    }

    /// The approximate RGB value of the colour, used for swatches and for mapping down.
    public var approximateRGB: (red: Int, green: Int, blue: Int)? {
        guard let index = paletteIndex else { return nil }
        if case .rgb(let r, let g, let b) = self { return (Int(r), Int(g), Int(b)) }
        return Self.rgbOf(index: index)
    }

    private static let basicRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    private static let cubeLevels = [0, 95, 135, 175, 215, 255]

    static func rgbOf(index: Int) -> (Int, Int, Int) {
        switch index {
        case 0..<16: return basicRGB[index]
        case 16..<232:
            let i = index - 16
            return (cubeLevels[i / 36], cubeLevels[(i / 6) % 6], cubeLevels[i % 6])
        default:
            let level = 8 + (index - 232) * 10
            return (level, level, level)
        }
    }

    /// The closest entry of the 6×6×6 cube or the grey ramp, as xterm does it.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        func cube(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : Int((Int(v) - 35) / 40) }
        let (cr, cg, cb) = (cube(r), cube(g), cube(b))
        let cubeIndex = 16 + 36 * cr + 6 * cg + cb
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = 8 + greyIndex * 10
        let cubeColour = (cubeLevels[cr], cubeLevels[cg], cubeLevels[cb])
        let cubeDistance = distance(cubeColour, (Int(r), Int(g), Int(b)))
        let greyDistance = distance((grey, grey, grey), (Int(r), Int(g), Int(b)))
        return greyDistance < cubeDistance ? 232 + greyIndex : cubeIndex
    }

    static func nearestBasic(_ r: Int, _ g: Int, _ b: Int) -> Int {
        var best = 0
        var bestDistance = Int.max
        for (index, colour) in basicRGB.prefix(8).enumerated() {
            let d = distance(colour, (r, g, b))
            if d < bestDistance {
                best = index
                bestDistance = d
            }
        }
        return best
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        return dr * dr + dg * dg + db * db
    }
}
