// swift-tools-version: 6.1
// libFuzzer target for the scenario-file parser (PLATFORM-NOTES.md, "Fuzzing with SwiftPM").
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
        .executableTarget(name: "FuzzScenarioParser", dependencies: ["OnAirScenario"], path: "Sources/FuzzScenarioParser"),
    ]
)
