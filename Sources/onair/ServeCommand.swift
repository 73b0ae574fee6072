import ArgumentParser
import OnAirApp

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the embedded RTMP relay: relays data messages and records by publish type (for demos and development).",
        discussion: """
            Publish to rtmp://HOST:PORT/live/NAME (any application name; stream names are letters, digits, '-', '_' \
            and '.'). Every audio, video and data message (send() notices such as publisherBackground) goes to every \
            player of NAME; a player that joins starts at once from the cached metadata, sequence headers and last \
            GOP. A player of a name nobody publishes yet waits and gets NetStream.Play.PublishNotify when a \
            publisher arrives, and UnpublishNotify when it leaves (also when its socket dies or it stays silent for \
            --idle-timeout); players stay connected across republishes. Publish type record writes \
            RECORD-DIR/NAME.flv anew, append continues it, live writes nothing. With --publish-key, publishers add \
            ?key=KEY to the stream name (or to the application: /live?key=KEY/NAME); players need no key. \
            A client address may hold --max-connections-per-address connections at once (loopback clients are \
            exempt unless --limit-loopback), and a client that has not completed the RTMP handshake and connect \
            within --handshake-timeout seconds is closed; both are logged with the reason. \
            SIGINT or SIGTERM stops cleanly and closes recordings.
            """
    )

    @Option(help: "Address to listen on as HOST:PORT; non-loopback addresses need --publish-key.")
    var listen = "127.0.0.1:1935"

    @Option(help: "Key publishers must present as ?key=KEY after the stream name (required beyond loopback).")
    var publishKey: String?

    @Option(help: "Directory for record/append recordings.")
    var recordDir = "recordings"

    @Option(help: "How long without data from a publisher, socket open, before it is treated as gone (seconds, or 30s, 2m; 0: never; at most a day).",
            transform: NumberArgument.seconds(in: .zero...NumberArgument.aDay))
    var idleTimeout: Double = 15

    @Option(help: "Most connections one client address may have open at once (0: no limit); loopback is exempt unless --limit-loopback.")
    var maxConnectionsPerAddress = 32

    @Flag(help: "Apply --max-connections-per-address to loopback clients too.")
    var limitLoopback = false

    @Option(help: "How long a client has to complete the RTMP handshake and connect before it is closed (seconds, or 500ms, 1m; at most an hour).",
            transform: NumberArgument.seconds(in: NumberArgument.aMillisecond...Duration.seconds(3600)))
    var handshakeTimeout: Double = 5

    @Option(help: "Milliseconds an audio-only batch may wait for the next video frame so both go to players in one write (0: never).")
    var audioMergeMs = 40

    @Flag(help: "Log as JSON Lines on stdout.")
    var headless = false

    func run() async throws {
        let options = ServeFrontEnd.Options(
            listen: listen, publishKey: publishKey, recordDirectory: recordDir, idleTimeout: idleTimeout, headless: headless,
            maxConnectionsPerAddress: maxConnectionsPerAddress, limitLoopback: limitLoopback, handshakeTimeout: handshakeTimeout,
            audioMergeMilliseconds: audioMergeMs)
        try await runFrontEnd { try await ServeFrontEnd(options: options).run() }
    }
}
