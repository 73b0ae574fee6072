import Foundation
import OnAirTestSupport

extension HeadlessRun {
    /// `onair publish` to streams "one" and "two" of two servers, headless, test sources at 320×240 25 fps,
    /// reading stdin commands from `commands`: the setup of the output-addressed command tests.
    static func publishingToTwo(_ servers: [NginxRTMPServer], in directory: TemporaryDirectory, commands: Pipe) throws -> HeadlessRun {
        try HeadlessRun(
            ["publish", servers[0].url(stream: "one"), servers[1].url(stream: "two"), "--headless", "--video", "test", "--audio", "test",
             "--size", "320x240", "--fps", "25", "--duration", "300"],
            in: directory, standardInput: commands.fileHandleForReading)
    }
}
