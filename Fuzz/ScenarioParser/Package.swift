// swift-tools-version: 6.1
// libFuzzer target for the scenario-file parser (docs/platform-notes.md, "Fuzzing with SwiftPM").
//
// A package of its own so that the main build never sees it: a fuzzer only links with
// `-sanitize=fuzzer`. Its OnAirCore and OnAirScenario are symlinks to the real sources, so it fuzzes
// exactly the code that ships. Run it with `make fuzz-scenarios` from the repository root.
import PackageDescription

let package = Package(
    name: "FuzzScenarioParser",
    targets: [
        .target(name: "OnAirCore", path: "Sources/OnAirCore"),
        .target(name: "OnAirScenario", dependencies: ["OnAirCore"], path: "Sources/OnAirScenario"),
        .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
        .executableTarget(name: "FuzzScenarioParser", dependencies: ["OnAirScenario", "FuzzDriver"], path: "Sources/FuzzScenarioParser"),
    ]
)
