/// The one place that decides what of an RTMP address is secret and how it is hidden: every event, log
/// line and screen shows names through these functions, so a key is hidden the same way everywhere.
///
/// Secret: the values of a `?query` (`?key=…`, `?token=…`), and a stream name that looks like a generated
/// key (services such as Twitch and YouTube use the key itself as the stream name).
public enum Redaction {
    /// What a hidden value is shown as.
    public static let mask = "***"

    /// A stream name or application (`name?key=K`, `live_123_AbC…`) as it may be shown.
    public static func streamName(_ name: String) -> String {
        var base = Substring(name)
        var query = ""
        if let mark = name.firstIndex(of: "?") {
            base = name[..<mark]
            let pairs = name[name.index(after: mark)...].split(separator: "&").map { pair -> String in
                if let equals = pair.firstIndex(of: "=") { return pair[..<equals] + "=" + mask }
                return mask
            }
            query = "?" + pairs.joined(separator: "&")
        }
        return (looksLikeKey(base) ? mask : String(base)) + query
    }

    /// `text` with every occurrence of `name` replaced by its shown form: for log lines and notices that
    /// quote the name (`→ publish NAME`, `publisherBackground(streamName=NAME)`).
    public static func text(_ text: String, hiding name: String) -> String {
        let shown = streamName(name)
        guard !name.isEmpty, shown != name, text.contains(name) else { return text }
        return text.replacing(name, with: shown)
    }

    /// A stream key is long and random: a Twitch-style `live_` followed by digits, at least 16 characters
    /// mixing letters and digits, or 24+ of anything.
    public static func looksLikeKey(_ segment: Substring) -> Bool {
        let hasLetter = segment.contains { $0.isLetter }
        let hasDigit = segment.contains { $0.isNumber }
        let twitchStyle = segment.hasPrefix("live_") && segment.dropFirst(5).first?.isNumber == true
        return twitchStyle || segment.count >= 24 || (segment.count >= 16 && hasLetter && hasDigit)
    }
}
