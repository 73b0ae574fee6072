import Foundation

/// Reads this package's targets and their declared dependencies from Package.swift's text, and the modules a
/// Swift file imports, for `PackageDependencyTests`.
///
/// Text, not `swift package dump-package`: that would take the build directory's lock, which the running
/// `swift test` holds. It reads the shapes this manifest uses — `.target(name: "X", dependencies: [...])`
/// and its `testTarget`, `executableTarget` and `systemLibrary` kin, `.product(name:package:)` entries —
/// and skips `//` comment lines.
enum PackageManifestTargets {
    static let declarationKinds = [".target(", ".testTarget(", ".executableTarget(", ".systemLibrary("]

    /// Each target's name and the names in its `dependencies:` list (target and product names).
    static func parse(_ manifest: String) -> [String: Set<String>] {
        let text = manifest.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingPrefix(while: \.isWhitespace).hasPrefix("//") }
            .joined(separator: "\n")
        var starts: [String.Index] = []
        var cursor = text.startIndex
        while let next = declarationKinds.compactMap({ text[cursor...].range(of: $0)?.lowerBound }).min() {
            starts.append(next)
            cursor = text.index(after: next)
        }
        var targets: [String: Set<String>] = [:]
        for (offset, start) in starts.enumerated() {
            let declaration = text[start..<(offset + 1 < starts.count ? starts[offset + 1] : text.endIndex)]
            guard let name = firstString(in: declaration.drop(while: { $0 != "(" })) else { continue }
            targets[name] = dependencies(in: declaration)
        }
        return targets
    }

    /// "T imports M" for each module M of this package (a key of `targets`) that target T imports without
    /// declaring it; sorted.
    static func undeclaredImports(targets: [String: Set<String>], importsOf: (String) throws -> Set<String>) rethrows -> [String] {
        var undeclared: [String] = []
        for (target, declared) in targets {
            let local = try importsOf(target).filter { targets[$0] != nil && $0 != target }
            undeclared += local.subtracting(declared).map { "\(target) imports \($0)" }
        }
        return undeclared.sorted()
    }

    /// The modules named by a file's `import` lines (`@testable`, access levels, `import struct M.T` and
    /// submodules `M.Sub` read as `M`).
    static func importedModules(in source: String) -> [String] {
        let kinds: Set<Substring> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        var modules: [String] = []
        for line in source.split(separator: "\n") {
            var words = line.split(whereSeparator: \.isWhitespace)[...]
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(first) {
                words = words.dropFirst()
            }
            guard words.first == "import", var module = words.dropFirst().first else { continue }
            if kinds.contains(module), let named = words.dropFirst(2).first { module = named }
            modules.append(String(module.prefix { $0 != "." }))
        }
        return modules
    }

    /// The string literals in the declaration's `dependencies: [...]`, less `package:` names.
    private static func dependencies(in declaration: Substring) -> Set<String> {
        guard let label = declaration.range(of: "dependencies:"),
              let open = declaration[label.upperBound...].firstIndex(of: "[") else { return [] }
        var depth = 0
        var close = declaration.endIndex
        for index in declaration[open...].indices {
            if declaration[index] == "[" { depth += 1 }
            if declaration[index] == "]" { depth -= 1 }
            if depth == 0 { close = index; break }
        }
        var names = Set<String>()
        var rest = declaration[declaration.index(after: open)..<close]
        while let quote = rest.firstIndex(of: "\"") {
            let before = rest[..<quote].trimmingCharacters(in: .whitespaces)
            let body = rest[rest.index(after: quote)...]
            guard let end = body.firstIndex(of: "\"") else { break }
            if !before.hasSuffix("package:") { names.insert(String(body[..<end])) }
            rest = body[body.index(after: end)...]
        }
        return names
    }

    private static func firstString(in text: Substring) -> String? {
        guard let quote = text.firstIndex(of: "\""),
              let end = text[text.index(after: quote)...].firstIndex(of: "\"") else { return nil }
        return String(text[text.index(after: quote)..<end])
    }
}
