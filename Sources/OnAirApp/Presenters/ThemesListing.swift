import OnAirConsole
import OnAirTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `onair themes`: every theme on the search path with a swatch, its description and its file, then the
/// search path itself. Colours only when stdout is a terminal, so the output can be piped or diffed.
/// A broken theme file is listed with its `file:line` error instead of stopping the listing.
public enum ThemesListing {
    /// The listing's text.
    public static func text(catalog: ThemeCatalog, ansi: Bool) -> String {
        let entries = catalog.entries()
        let nameWidth = (entries.map { $0.name.count }.max() ?? 7) + 2
        var lines: [String] = []
        for entry in entries {
            let name = entry.name.padding(to: nameWidth)
            do {
                let result = try catalog.load(entry.path ?? entry.name)
                lines.append(name + ThemeSwatch(result.theme).line(ansi: ansi))
                let summary = result.theme.summary.isEmpty ? "" : result.theme.summary + " — "
                lines.append(String(repeating: " ", count: nameWidth) + summary + (entry.path ?? "built in"))
                for warning in result.warnings {
                    lines.append(String(repeating: " ", count: nameWidth) + warning.description)
                }
            } catch {
                lines.append(name + "error: " + error.description)
            }
        }
        lines.append("")
        lines.append(
            "searched: " + (catalog.directories.isEmpty ? "no Themes/ directory found" : catalog.directories.joined(separator: ", "))
                + " (order: $ONAIR_THEMES, ./Themes, Themes/ above the executable)"
        )
        lines.append("use one with --theme NAME")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Prints the listing on stdout; colour when stdout is a terminal and NO_COLOR is not set.
    public static func run(catalog: ThemeCatalog = .standard()) {
        let ansi = isatty(1) == 1 && getenv("NO_COLOR") == nil
        var bytes = Array(text(catalog: catalog, ansi: ansi).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
