import ArgumentParser
import Foundation
import OnAirCore

/// A client's stream key from a file or the environment, so it need not sit in argv (and `ps`).
struct StreamKeyOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Read the stream key from this file (first line); ONAIR_STREAM_KEY does the same from the environment.",
        discussion: "With a URL that ends at the application (rtmp://host/app), the key is the stream name, as services such as Twitch and YouTube expect; otherwise it is added as ?key=KEY, as `onair serve --publish-key` expects.",
        valueName: "file"))
    var streamKeyFile: String?

    /// The environment variable read when no `--stream-key-file` is given.
    static let environmentVariable = "ONAIR_STREAM_KEY"

    /// The key, from the file first, then the environment; nil when neither gives one.
    func key(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        if let streamKeyFile {
            guard let handle = FileHandle(forReadingAtPath: streamKeyFile) else {
                throw ValidationError("--stream-key-file \(streamKeyFile): cannot open it; give a readable file holding the key")
            }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: 4096)) ?? Data()
            let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            let key = line.trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else {
                throw ValidationError("--stream-key-file \(streamKeyFile): the file holds no key; put the key on its first line")
            }
            return key
        }
        guard let key = environment[Self.environmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            return nil
        }
        return key
    }

    /// `url` with the key (if any) in place: the stream name for `rtmp://host/app`, else `?key=KEY`.
    func url(_ url: String) throws -> String {
        guard let key = try key() else { return url }
        guard key.allSatisfy({ !$0.isWhitespace && $0 != "/" && $0 != "?" && $0 != "&" && !$0.isASCIIControl }) else {
            throw ValidationError("the stream key holds spaces or one of / ? &; give the key alone")
        }
        return StreamURL.adding(key: key, to: url)
    }
}

extension Character {
    fileprivate var isASCIIControl: Bool { asciiValue.map { $0 < 32 || $0 == 127 } ?? false }
}
