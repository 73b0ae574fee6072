// swift-tools-version: 6.1
// OnAir — a terminal console for a live broadcast that rehearses phone-app interruptions.
//
// Targets follow DESIGN.md §2; imports point one way, toward the pure core:
//
//   onair ─► OnAirApp ─► OnAirConsole ─► OnAirCore          (TerminalBackend, InMemoryTerminal, key table)
//                    ├─► OnAirScenario ─► OnAirCore
//                    ├─► OnAirTerminal ─► OnAirConsole, CNcurses   (TerminalScreen, ThemeCatalog)
//                    ├─► OnAirControl ─► OnAirNet, OnAirMedia, OnAirCore   (no wire type: no OnAirRTMP)
//                    │   (controllers, media pump, timers, link stage + ABR, command router, stdin/signals)
//                    ├─► OnAirNet ─► OnAirRTMP ─► OnAirCore, NIOCore
//                    │            └─► NIOSSL (rtmps://)
//                    └─► OnAirMedia ─► OnAirCore, CFFmpeg, CV4L2, CALSA
//
// OnAirApp: the front ends, one loop (FrontEndLoop) and two presenters (console, headless).
// OnAirCore holds the one command vocabulary (OperatorCommand) and its one rule. OnAirControl knows no
// screen: it never imports OnAirConsole, OnAirTerminal or OnAirScenario. OnAirApp reads FLV recordings with
// OnAirRTMP directly and holds no NIO type.
// Each C library has exactly one shim target, imported by exactly one Swift target (and its tests).
import PackageDescription

let package = Package(
    name: "OnAir",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "onair", targets: ["onair"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
    ],
    targets: [
        // MARK: C bridges — one per C library.
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses"),
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg"),
        .systemLibrary(name: "CALSA", path: "Sources/CALSA"),
        .systemLibrary(name: "CV4L2", path: "Sources/CV4L2"),

        // MARK: Pure Swift.
        .target(
            name: "OnAirCore",
            dependencies: []
        ),
        .target(
            name: "OnAirRTMP",
            dependencies: [
                "OnAirCore",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "OnAirConsole",
            dependencies: ["OnAirCore"]
        ),
        /// Scenario files: the format, the expectations and the report, with no I/O (fuzzed in Fuzz/ScenarioParser).
        .target(
            name: "OnAirScenario",
            dependencies: ["OnAirCore"]
        ),

        // MARK: I/O.
        .target(
            name: "OnAirNet",
            dependencies: [
                "OnAirCore",
                "OnAirRTMP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        .target(
            name: "OnAirMedia",
            dependencies: [
                "OnAirCore",
                "CFFmpeg",
                "CV4L2",
                "CALSA",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "OnAirTerminal",
            dependencies: ["OnAirConsole", "CNcurses"]
        ),

        /// The objects that own I/O and know no screen: the publisher and subscriber controllers, the media
        /// pump, timers, the link stage and ABR, the command router and the inputs (stdin, signals).
        .target(
            name: "OnAirControl",
            dependencies: [
                "OnAirCore",
                "OnAirNet",
                "OnAirMedia",
            ]
        ),

        // MARK: Front ends and wiring.
        .target(
            name: "OnAirApp",
            dependencies: [
                "OnAirCore",
                "OnAirRTMP",
                "OnAirNet",
                "OnAirMedia",
                "OnAirControl",
                "OnAirConsole",
                "OnAirScenario",
                "OnAirTerminal",
            ]
        ),
        .executableTarget(
            name: "onair",
            dependencies: [
                "OnAirApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests mirror the source targets.
        /// Starts and stops the real peers tests talk to (nginx-rtmp, ffmpeg, rtmpdump, the onair binary).
        /// Test peers; the scripted RTMP server (a recording or hostile peer, optionally over TLS) needs NIO.
        .target(
            name: "OnAirTestSupport",
            dependencies: [
                "OnAirRTMP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(name: "OnAirCoreTests", dependencies: ["OnAirCore", "OnAirTestSupport"]),
        .testTarget(
            name: "OnAirRTMPTests",
            dependencies: [
                "OnAirRTMP", "OnAirCore", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "OnAirNetTests",
            dependencies: [
                "OnAirNet", "OnAirRTMP", "OnAirCore", "OnAirTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "OnAirMediaTests", dependencies: ["OnAirMedia", "OnAirCore", "OnAirTestSupport"]),
        .testTarget(name: "OnAirConsoleTests", dependencies: ["OnAirConsole", "OnAirCore", "OnAirTestSupport"], resources: [.copy("Snapshots")]),
        .testTarget(name: "OnAirScenarioTests", dependencies: ["OnAirScenario", "OnAirCore", "OnAirTestSupport"]),
        /// CNcurses: the tests read back what ncurses put on screen (`curscr`), which the product never needs.
        .testTarget(name: "OnAirTerminalTests", dependencies: ["OnAirTerminal", "OnAirConsole", "CNcurses"]),
        .testTarget(name: "OnAirAppTests", dependencies: ["OnAirApp", "OnAirControl", "OnAirCore", "OnAirNet", "OnAirRTMP", "OnAirTestSupport"]),
    ]
)
