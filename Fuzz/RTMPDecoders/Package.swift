// swift-tools-version: 6.1
// libFuzzer targets for OnAir's wire decoders (docs/platform-notes.md, "Fuzzing with SwiftPM").
//
// A package of its own so that the main build never sees it: a fuzzer only links with
// `-sanitize=fuzzer`. Its OnAirCore and OnAirRTMP are symlinks to the real sources, so it fuzzes
// exactly the code that ships. Run it with `make fuzz` (or `make fuzz-smoke`) from the repository root.
import PackageDescription

let package = Package(
    name: "FuzzRTMPDecoders",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        .target(name: "OnAirCore", path: "Sources/OnAirCore"),
        .target(
            name: "OnAirRTMP",
            dependencies: ["OnAirCore", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/OnAirRTMP"
        ),
        /// libavutil/libswscale (the Y4M reader's conversions) and the SIGBUS guard of its mapped frames:
        /// symlinks to the main package's shim and C target.
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg"),
        .target(name: "CMappedFileGuard", path: "Sources/CMappedFileGuard"),
        /// The V4L2 constants of the camera converter: a symlink to the main package's shim.
        .systemLibrary(name: "CV4L2", path: "Sources/CV4L2"),
        /// libFuzzer's driver, shared by the fuzz executables.
        .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
        .executableTarget(
            name: "FuzzAMF0Decoder",
            dependencies: ["OnAirRTMP", "FuzzDriver", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/FuzzAMF0Decoder"
        ),
        .executableTarget(
            name: "FuzzChunkDecoder",
            dependencies: ["OnAirRTMP", "FuzzDriver", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/FuzzChunkDecoder"
        ),
        .executableTarget(
            name: "FuzzFLVReader",
            dependencies: ["OnAirRTMP", "FuzzDriver", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/FuzzFLVReader"
        ),
        .executableTarget(
            name: "FuzzAggregateMessage",
            dependencies: ["OnAirRTMP", "FuzzDriver", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/FuzzAggregateMessage"
        ),
        /// The H.264 SPS parser, the avcC record and the NAL unit scanners: what a player reads from a publisher's
        /// sequence headers and keyframes before the decoder sees them.
        .executableTarget(
            name: "FuzzSPSParser",
            dependencies: ["OnAirCore", "OnAirRTMP", "FuzzDriver", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/FuzzSPSParser"
        ),
        /// The player's demuxer (metadata, sequence headers, media) after the client's message decoding: its
        /// sources are symlinks to just those files of OnAirNet, beside a mirror of the two types they speak.
        .executableTarget(
            name: "FuzzPlayerDemuxer",
            dependencies: ["OnAirCore", "OnAirRTMP", "FuzzDriver", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/FuzzPlayerDemuxer"
        ),
        /// The relay recorder's resume scan and timestamp mapping: its sources are symlinks to just those
        /// files of OnAirRelay (internal types, so they compile into the fuzzer itself, without the networking).
        .executableTarget(
            name: "FuzzRecorderResume",
            dependencies: ["OnAirRTMP", "FuzzDriver", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/FuzzRecorderResume"
        ),
        /// `--audio FILE.wav`: the RIFF walk, the fmt chunk and the sample reads. Its sources are symlinks to
        /// just those files of OnAirMedia (and the POSIX funnel they call), without the C libraries.
        .executableTarget(
            name: "FuzzWAVReader",
            dependencies: ["FuzzDriver"],
            path: "Sources/FuzzWAVReader"
        ),
        /// `--video FILE.y4m`: the header line, the FRAME markers and every frame mapped, read or converted by
        /// libswscale. Its sources are symlinks to just those files of OnAirMedia, with the two C targets.
        .executableTarget(
            name: "FuzzY4MReader",
            dependencies: ["OnAirCore", "CFFmpeg", "CMappedFileGuard", "FuzzDriver"],
            path: "Sources/FuzzY4MReader"
        ),
        /// A camera driver's format, stride and buffer through the camera converter (libswscale, libavcodec's
        /// MJPEG decoder). Its sources are symlinks to just those files of OnAirMedia, with the three C targets.
        .executableTarget(
            name: "FuzzCameraConverter",
            dependencies: ["CFFmpeg", "CV4L2", "CMappedFileGuard", "FuzzDriver"],
            path: "Sources/FuzzCameraConverter"
        ),
        /// What a server sends a subscriber, through `PacketDecoder` (libavcodec's H.264, AAC, MP3, PCM and G.711
        /// decoders, then the marker, slate, preview, I420 copy and audio level of every frame). Its sources are
        /// symlinks to just those files of OnAirMedia; OnAirRTMP reads the avcC records and NAL lengths.
        .executableTarget(
            name: "FuzzPacketDecoder",
            dependencies: [
                "OnAirCore", "OnAirRTMP", "CFFmpeg", "CMappedFileGuard", "FuzzDriver", .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/FuzzPacketDecoder"
        ),
        /// The whole relay (connection handler, registry, fan-out, GOP cache, recorder, interruptions) on
        /// `EmbeddedChannel`s: its sources are a symlink to OnAirRelay, without the socket bootstrap (NIOPosix).
        .executableTarget(
            name: "FuzzRelayConnection",
            dependencies: [
                "OnAirCore", "OnAirRTMP", "FuzzDriver",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Sources/FuzzRelayConnection",
            exclude: ["OnAirRelay/Server/RelayServer.swift"]
        ),
        /// The client's protocol handler (every publisher and player) against a scripted server on an
        /// `EmbeddedChannel`: symlinks to the handler and `RTMPClient`'s errors and messages, without the networking.
        .executableTarget(
            name: "FuzzClientConnection",
            dependencies: [
                "OnAirCore", "OnAirRTMP", "FuzzDriver",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Sources/FuzzClientConnection"
        ),
    ]
)
