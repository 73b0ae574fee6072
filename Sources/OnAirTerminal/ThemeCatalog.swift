import Foundation
import OnAirConsole

/// Finds theme files and loads them by name: what `--theme NAME` and `onair themes` use.
///
/// Search order (the first directory holding `NAME.theme` wins; later ones are not read):
/// 1. every directory in `$ONAIR_THEMES` (colon-separated), so a user can add or shadow themes;
/// 2. `Themes/` in the current directory;
/// 3. `Themes/` next to the executable, then in each parent up to the package root (`.build/debug/onair`
///    finds the checkout's `Themes/`, an installed `bin/onair` finds `bin/Themes/` or `share/…/Themes/` above).
///
/// `default` always exists: without a `default.theme` file it is the built-in default. A NAME holding a
/// `/` or ending in `.theme` is read as a path. It lives here, beside the terminal, so that OnAirConsole
/// stays pure (it parses theme text, `ThemeParser`, and reads no files).
public struct ThemeCatalog: Sendable {
    /// Why a theme could not be loaded, in one line the front end prints as is.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        case unknownTheme(name: String, available: [String], searched: [String])
        case unreadable(path: String)
        case malformed(ThemeParser.Failure)

        public var description: String {
            switch self {
            case .unknownTheme(let name, let available, let searched):
                "unknown theme '\(name)'; themes found: \(available.joined(separator: ", ")) (searched \(searched.isEmpty ? "no directories" : searched.joined(separator: ", ")))"
            case .unreadable(let path): "\(path): cannot read the theme file"
            case .malformed(let failure): failure.description
            }
        }
    }

    /// A theme file found on the search path.
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// Nil for the built-in default.
        public var path: String?
    }

    public static let fileExtension = "theme"

    /// The directories searched, in order.
    public var directories: [String]

    public init(directories: [String]) {
        self.directories = directories
    }

    /// The standard search path (see the type's note), deduplicated, existing directories only.
    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executablePath: String? = Bundle.main.executablePath
    ) -> ThemeCatalog {
        var candidates: [String] = []
        if let list = environment["ONAIR_THEMES"] {
            candidates += list.split(separator: ":").map(String.init)
        }
        candidates.append((currentDirectory as NSString).appendingPathComponent("Themes"))
        if let executablePath {
            var directory = ((executablePath as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
            for _ in 0..<6 {
                candidates.append((directory as NSString).appendingPathComponent("Themes"))
                let parent = (directory as NSString).deletingLastPathComponent
                if parent == directory { break }
                directory = parent
            }
        }
        var seen: Set<String> = []
        var directories: [String] = []
        for candidate in candidates {
            let path = (candidate as NSString).standardizingPath
            var isDirectory: ObjCBool = false
            guard !seen.contains(path), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                continue
            }
            seen.insert(path)
            directories.append(path)
        }
        return ThemeCatalog(directories: directories)
    }

    /// Every theme found, by name; a name found twice is the first directory's. Always includes `default`.
    public func entries() -> [Entry] {
        var byName: [String: Entry] = [:]
        for directory in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for file in files where file.hasSuffix("." + Self.fileExtension) {
                let name = String(file.dropLast(Self.fileExtension.count + 1))
                guard !name.isEmpty, byName[name] == nil else { continue }
                byName[name] = Entry(name: name, path: (directory as NSString).appendingPathComponent(file))
            }
        }
        if byName["default"] == nil { byName["default"] = Entry(name: "default", path: nil) }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// Loads a theme by name (or path): the theme plus the warnings to show the operator.
    public func load(_ nameOrPath: String) throws(Error) -> ThemeParser.Result {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix("." + Self.fileExtension) {
            let name = ((nameOrPath as NSString).lastPathComponent as NSString).deletingPathExtension
            return try Self.load(path: nameOrPath, name: name)
        }
        guard let entry = entries().first(where: { $0.name == nameOrPath }) else {
            throw .unknownTheme(name: nameOrPath, available: entries().map(\.name), searched: directories)
        }
        guard let path = entry.path else { return ThemeParser.Result(theme: .builtInDefault, warnings: []) }
        return try Self.load(path: path, name: entry.name)
    }

    /// Reads and parses one theme file.
    public static func load(path: String, name: String) throws(Error) -> ThemeParser.Result {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        do {
            return try ThemeParser().parse(Array(data), file: path, name: name)
        } catch {
            throw .malformed(error)
        }
    }
}
