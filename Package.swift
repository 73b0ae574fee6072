// swift-tools-version: 6.1
// OnAir — a terminal console for a live broadcast that rehearses phone-app interruptions.
//
// Targets follow docs/design.md §2; imports point one way, toward the pure core:
//
//   onair ─► OnAirApp ─► OnAirConsole ─► OnAirCore          (TerminalBackend, InMemoryTerminal, key table)
//                    ├─► OnAirScenario ─► OnAirCore
//                    ├─► OnAirTerminal ─► OnAirConsole, CNcurses   (TerminalScreen, ThemeCatalog)
//                    ├─► OnAirControl ─► OnAirNet, OnAirLink, OnAirMedia, OnAirCore   (no wire type: no OnAirRTMP)
//                    │   (controllers, media pump, timers, ABR's sampler, command router, stdin/signals)
//                    ├─► OnAirNet ─► OnAirRTMP ─► OnAirCore, NIOCore      (the client: connect, publish, play)
//                    │            ├─► NIOSSL (rtmps://)
//                    │            └─► CLinuxTCP (TCP_INFO of the publisher's socket)
//                    ├─► OnAirRelay ─► OnAirRTMP, OnAirCore, NIOPosix    (`onair serve`: server, streams, recording)
//                    ├─► OnAirLink ─► OnAirCore                           (the loopback impairment stage)
//                    └─► OnAirMedia ─► OnAirCore, CFFmpeg, CV4L2, CALSA, CMappedFileGuard
//
// OnAirApp: the front ends, one loop (FrontEndLoop) and two presenters (console, headless).
// OnAirCore holds the one command vocabulary (OperatorCommand) and its one rule. OnAirControl knows no
// screen: it never imports OnAirConsole, OnAirTerminal or OnAirScenario. OnAirApp reads FLV recordings with
// OnAirRTMP directly and holds no NIO type.
// Each C library has exactly one shim target, imported by exactly one Swift target (and its tests).
// Every target lists each module of this package it imports, even one its dependencies bring along: SwiftPM's
// native build recompiles a target only when a listed dependency's module changes, so an unlisted one can
// change its layout under stale objects (docs/build-dependencies.md; PackageDependencyTests checks it).
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
        /// Linux's `struct tcp_info` (UAPI), mirrored: glibc's is the 2.6 layout, without the counters ABR reads.
        .systemLibrary(name: "CLinuxTCP", path: "Sources/CLinuxTCP"),
        /// Not a library's shim but C of our own: a SIGBUS handler, which Swift cannot write (it must be
        /// async-signal-safe), guarding the mapped frames of a Y4M clip another process may truncate.
        .target(name: "CMappedFileGuard", path: "Sources/CMappedFileGuard"),

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
                "CLinuxTCP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        /// `onair serve` and the demo's embedded relay: a server of its own, sharing only the wire code with the client.
        .target(
            name: "OnAirRelay",
            dependencies: [
                "OnAirCore",
                "OnAirRTMP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        /// The loopback link stage: impairs a connection (caps, outages, resets) and measures nothing the
        /// broadcast depends on.
        .target(
            name: "OnAirLink",
            dependencies: ["OnAirCore"]
        ),
        .target(
            name: "OnAirMedia",
            dependencies: [
                "OnAirCore",
                "CFFmpeg",
                "CV4L2",
                "CALSA",
                "CMappedFileGuard",
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
                "OnAirLink",
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
                "OnAirRelay",
                "OnAirLink",
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
                "OnAirCore",
                "OnAirTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests mirror the source targets.
        /// Starts and stops the real peers tests talk to (nginx-rtmp, ffmpeg, rtmpdump, the onair binary).
        /// Test peers; the scripted RTMP server (a recording or hostile peer, optionally over TLS) needs NIO.
        .target(
            name: "OnAirTestSupport",
            dependencies: [
                "OnAirCore", "OnAirRTMP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(name: "OnAirCoreTests", dependencies: ["OnAirCore", "OnAirTestSupport"], resources: [.copy("Fixtures")]),
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
                "OnAirNet", "OnAirLink", "OnAirRTMP", "OnAirCore", "OnAirTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "OnAirRelayTests",
            dependencies: [
                "OnAirRelay", "OnAirNet", "OnAirRTMP", "OnAirCore", "OnAirTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "OnAirLinkTests", dependencies: ["OnAirLink", "OnAirNet", "OnAirCore", "OnAirTestSupport"]),
        /// CFFmpeg: FrameScalerBoundsTests checks FrameScaler's conversions against libswscale into padded planes.
        .testTarget(name: "OnAirMediaTests", dependencies: ["OnAirMedia", "OnAirCore", "OnAirTestSupport", "CMappedFileGuard", "CFFmpeg"]),
        .testTarget(name: "OnAirConsoleTests", dependencies: ["OnAirConsole", "OnAirCore", "OnAirTestSupport"], resources: [.copy("Snapshots")]),
        .testTarget(name: "OnAirScenarioTests", dependencies: ["OnAirScenario", "OnAirCore", "OnAirTestSupport"]),
        /// CNcurses: the tests read back what ncurses put on screen (`curscr`), which the product never needs.
        .testTarget(name: "OnAirTerminalTests", dependencies: ["OnAirTerminal", "OnAirConsole", "OnAirCore", "CNcurses"]),
        .testTarget(
            name: "OnAirAppTests",
            dependencies: [
                "OnAirApp", "OnAirControl", "OnAirCore", "OnAirNet", "OnAirRelay", "OnAirLink", "OnAirRTMP",
                "OnAirConsole", "OnAirMedia", "OnAirScenario", "OnAirTerminal", "OnAirTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ]
)
