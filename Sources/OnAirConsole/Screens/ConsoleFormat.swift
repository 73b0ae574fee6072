import OnAirCore

/// Number formats shared by the dashboards: short, fixed-width-ish, locale-independent (tests compare text).
public enum ConsoleFormat {
    /// `2.50 Mb/s`, `128 kb/s`, `0 b/s`.
    public static func bitrate(_ bitsPerSecond: Int) -> String {
        let value = max(0, bitsPerSecond)
        if value >= 1_000_000 { return decimal(Double(value) / 1_000_000, places: 2) + " Mb/s" }
        if value >= 1_000 { return String(value / 1_000) + " kb/s" }
        return String(value) + " b/s"
    }

    /// `hh:mm:ss` of a duration (negative clamps to zero).
    public static func clock(_ duration: Duration) -> String {
        let total = max(0, duration.wholeMilliseconds / 1000)
        return [total / 3600, (total / 60) % 60, total % 60].map { pad($0) }.joined(separator: ":")
    }

    /// `1.2 s`: a countdown to one decimal, rounded up so it never shows 0.0 before the moment.
    public static func seconds(_ milliseconds: Int64) -> String {
        let tenths = (max(0, milliseconds) + 99) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// `42%` from 0…1.
    public static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "–" }
        return String(Int((min(max(fraction, 0), 1) * 100).rounded())) + "%"
    }

    /// A fixed number of decimals without Foundation's locale-dependent formatting.
    public static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = scaled % Int64(scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: places - digits.count) + digits
    }

    private static func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }

    /// The first of `forms` (longest first) that fits `width` columns, else the last: a text abbreviated by
    /// rule instead of cut with an ellipsis.
    public static func longestFitting(_ forms: [String], width: Int) -> String {
        forms.first { DisplayWidth.of($0) <= width } ?? forms.last ?? ""
    }
}
