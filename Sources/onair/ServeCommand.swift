import ArgumentParser
import Foundation
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
            RECORD-DIR/NAME.flv anew, append continues it, live writes nothing — unless the publisher adds \
            ?record=record (or append) after the stream name, or --record all records every publish (stock encoders \
            such as ffmpeg, GStreamer and OBS always publish live); --record none records nothing. Streams of an \
            application other than live are APP/NAME, recorded as RECORD-DIR/APP/NAME.flv. With --publish-key, publishers add \
            ?key=KEY to the stream name (or to the application: /live?key=KEY/NAME); players need no key. \
            A client address may hold --max-connections-per-address connections at once (loopback clients are \
            exempt unless --limit-loopback), and a client that has not completed the RTMP handshake and connect \
            within --handshake-timeout seconds is closed; both are logged with the reason. The publish key may \
            also come from --publish-key-file or the ONAIR_PUBLISH_KEY environment variable, so it need not be \
            in argv. Per connection the relay allows 16 message streams, 8 plays at once, 1 MiB of unread \
            protocol answers, 100 commands or pings a second after a burst of 500, 16 MiB of unfinished messages (each finished within 10 s), and \
            --connect-idle-timeout seconds without publishing or playing; past a limit the connection is \
            closed with a "rejected" event saying which. \
            SIGINT or SIGTERM stops cleanly and closes recordings.
            """
    )

    @Option(help: "Address to listen on as HOST:PORT; non-loopback addresses need --publish-key.")
    var listen = "127.0.0.1:1935"

    @Option(help: "Key publishers must present as ?key=KEY after the stream name (required beyond loopback). Visible in ps: prefer --publish-key-file or ONAIR_PUBLISH_KEY.")
    var publishKey: String?

    @Option(help: "File holding the publish key (its first line), so the key is not in argv.")
    var publishKeyFile: String?

    @Option(help: "Directory for record/append recordings (created at start when given, or with --record all; default: ./recordings, created at the first recording).")
    var recordDir: String?

    @Option(help: "Which publishes are recorded: by-type (record/append publishes, or ?record=record|append after the name), all (live ones too, as record), none.")
    var record = "by-type"

    @Option(parsing: .unconditional, help: "How long without data from a publisher, socket open, before it is treated as gone (seconds, or 30s, 2m; 0: never; from 1 s to a day).",
            transform: NumberArgument.secondsOrOff(minimum: .seconds(1), maximum: NumberArgument.aDay))
    var idleTimeout: Double = 15

    @Option(parsing: .unconditional, help: "Most connections one client address may have open at once (0: no limit); loopback is exempt unless --limit-loopback.")
    var maxConnectionsPerAddress = 32

    @Flag(help: "Apply --max-connections-per-address to loopback clients too.")
    var limitLoopback = false

    @Option(parsing: .unconditional, help: "How long a client has to complete the RTMP handshake and connect before it is closed (seconds, or 500ms, 1m; at most an hour).",
            transform: NumberArgument.seconds(in: NumberArgument.aMillisecond...Duration.seconds(3600)))
    var handshakeTimeout: Double = 5

    @Option(parsing: .unconditional, help: "How long a connected client may neither publish nor play before it is closed (seconds, or 30s, 2m; 0: never; at most a day).",
            transform: NumberArgument.seconds(in: .zero...NumberArgument.aDay))
    var connectIdleTimeout: Double = 15

    @Option(parsing: .unconditional, help: "Open connections from which loopback clients too are held to --max-connections-per-address (0: never).")
    var loopbackExemptionLimit = 256

    @Option(parsing: .unconditional, help: "Milliseconds an audio-only batch may wait for the next video frame so both go to players in one write (0: never).")
    var audioMergeMs = 40

    @Flag(inversion: .prefixedNo, help: "TCP_NODELAY on client sockets: media leaves at once; --no-tcp-nodelay lets the kernel coalesce small writes (Nagle, as nginx-rtmp), a little less CPU on busy fan-outs.")
    var tcpNodelay = true

    @Flag(help: "Log as JSON Lines on stdout.")
    var headless = false

    func run() async throws {
        var options = ServeFrontEnd.Options(
            listen: listen, publishKey: publishKey, recordDirectory: recordDir ?? "recordings", idleTimeout: idleTimeout, headless: headless,
            maxConnectionsPerAddress: maxConnectionsPerAddress, limitLoopback: limitLoopback, handshakeTimeout: handshakeTimeout,
            audioMergeMilliseconds: audioMergeMs)
        options.publishKeyFile = publishKeyFile
        options.environmentPublishKey = ProcessInfo.processInfo.environment[ServeFrontEnd.publishKeyVariable]
        options.connectIdleTimeout = connectIdleTimeout
        options.loopbackExemptionLimit = loopbackExemptionLimit
        options.recordMode = record
        options.recordDirectoryGiven = recordDir != nil
        options.tcpNoDelay = tcpNodelay
        try await runFrontEnd { try await ServeFrontEnd(options: options).run() }
    }
}
