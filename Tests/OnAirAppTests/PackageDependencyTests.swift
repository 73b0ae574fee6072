import Foundation
import Testing

/// Every module of this package that a target imports is one of that target's declared dependencies in
/// Package.swift.
///
/// Why: SwiftPM's native build system re-runs a target's compile only when one of its *declared*
/// dependencies' modules changes: they are the compile command's only module inputs (`.build/debug.yaml`).
/// A module imported through another target (OnAirAppTests imported OnAirConsole through OnAirApp) can
/// change its layout while the importer keeps its old object files. Two `Int`s added to `ConsoleUIState`
/// (168 → 184 bytes) left `TerminalThreadTests.swift.o`'s copy of `ConsoleScreen.init`'s default `ui:`
/// argument writing 184 bytes into a stack slot sized for the old layout: a saved frame pointer overwritten
/// with `1`, "Bad pointer dereference", until a clean build (docs/build-dependencies.md;
/// swiftlang/swift-package-manager#10502).
@Suite("Package.swift declares every module a target imports")
struct PackageDependencyTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("no target imports a module of this package it does not declare as a dependency")
    func importsAreDeclared() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = PackageManifestTargets.parse(manifest)
        #expect(targets.count >= 20, "the manifest's targets were not found: \(targets.keys.sorted())")
        let undeclared = try PackageManifestTargets.undeclaredImports(targets: targets) { try Self.imports(ofTarget: $0) }
        #expect(undeclared.isEmpty, "add these to the target's dependencies in Package.swift: \(undeclared)")
    }

    /// The check itself on the shape that went stale: App imports Lib but declares only Mid.
    @Test("an import reached only through another target is reported; a declared one is not")
    func reportsTransitiveImport() {
        let manifest = """
            targets: [
                .target(name: "Lib"),
                // A comment naming "Lib" is not a dependency.
                .target(name: "Mid", dependencies: ["Lib", .product(name: "NIOCore", package: "swift-nio")]),
                .executableTarget(
                    name: "App",
                    dependencies: ["Mid"]
                ),
                .testTarget(name: "AppTests", dependencies: ["App", "Mid", "Lib"]),
            ]
            """
        let targets = PackageManifestTargets.parse(manifest)
        #expect(targets == ["Lib": [], "Mid": ["Lib", "NIOCore"], "App": ["Mid"], "AppTests": ["App", "Mid", "Lib"]])
        let imports: [String: Set<String>] = ["Lib": ["Foundation"], "Mid": ["Lib", "NIOCore"], "App": ["Mid", "Lib"], "AppTests": ["App", "Lib", "Testing"]]
        #expect(PackageManifestTargets.undeclaredImports(targets: targets) { imports[$0] ?? [] } == ["App imports Lib"])
    }

    @Test("import lines are read with attributes, access levels, kinds and submodules")
    func parsesImportLines() {
        let source = """
            import Foundation
            @testable import OnAirApp
            @preconcurrency import Dispatch
            public import OnAirCore
            import struct OnAirConsole.ConsoleScreen
            // import OnAirRelay
            let important = 1
            """
        #expect(PackageManifestTargets.importedModules(in: source) == ["Foundation", "OnAirApp", "Dispatch", "OnAirCore", "OnAirConsole"])
    }

    /// The modules the Swift files of `Sources/NAME` or `Tests/NAME` import (none for a C shim target).
    static func imports(ofTarget name: String) throws -> Set<String> {
        let directory = ["Sources", "Tests"].map { Self.root.appendingPathComponent($0).appendingPathComponent(name) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
        guard let directory, let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var modules = Set<String>()
        for case let file as URL in files where file.pathExtension == "swift" {
            modules.formUnion(PackageManifestTargets.importedModules(in: try String(contentsOf: file, encoding: .utf8)))
        }
        return modules
    }
}
