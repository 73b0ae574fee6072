import Foundation

/// Where `onair demo` keeps the embedded relay's recordings when no `--record-dir` is given: never the
/// current directory (a demo run in a source tree must not litter it), but the XDG state directory.
public enum RecordingDirectory {
    /// `$XDG_STATE_HOME/onair/recordings`, else `~/.local/state/onair/recordings`; a fresh temporary
    /// directory when neither can be created (a read-only home).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var candidates: [String] = []
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            candidates.append(state + "/onair/recordings")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            candidates.append(home + "/.local/state/onair/recordings")
        }
        for path in candidates where (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil {
            if FileManager.default.isWritableFile(atPath: path) { return path }
        }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("onair-recordings-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        return temporary
    }
}
