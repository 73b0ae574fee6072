// swift-tools-version: 6.1
// libFuzzer target for the console's theme parser (docs/platform-notes.md, "Fuzzing with SwiftPM").
//
// A package of its own so that the main build never sees it: a fuzzer only links with
// `-sanitize=fuzzer`. Its OnAirCore and OnAirConsole are symlinks to the real sources, so it fuzzes
// exactly the code that ships. Run it with `make fuzz` from the repository root.
import PackageDescription

let package = Package(
    name: "FuzzThemeParser",
    targets: [
        .target(name: "OnAirCore", path: "Sources/OnAirCore"),
        .target(name: "OnAirConsole", dependencies: ["OnAirCore"], path: "Sources/OnAirConsole"),
        .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
        .executableTarget(name: "FuzzThemeParser", dependencies: ["OnAirConsole", "FuzzDriver"], path: "Sources/FuzzThemeParser"),
    ]
)
