import ArgumentParser
import OnAirApp

struct SubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Play a stream from an RTMP server and follow the publisher's interrupt notices."
    )

    @Argument(help: "What to play: rtmp[s]://host[:port]/app/stream")
    var url: String

    @OptionGroup var subscriber: SubscriberOptions
    @OptionGroup var tls: TLSOptions
    @OptionGroup var presentation: PresentationOptions

    func run() async throws {
        try await runFrontEnd { throw FrontEndExit.notBuiltYet("subscribe", issue: 3) }
    }
}
