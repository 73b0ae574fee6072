import Synchronization

/// Each stream's latest recording file, noted from the registry's `recordingStarted` events as they are
/// emitted, so a reader outside the relay's loop (a scenario's `expect recording`) finds the file this relay
/// wrote, wherever `RelayRecorder` put it. Bounded: a relay that recorded more names than `limit` forgets
/// one of the older ones for each new one (the registry's own bounds keep far fewer live at once).
final class RecordingPaths: Sendable {
    static let limit = 1024
    private let paths = Mutex<[String: String]>([:])

    func note(_ event: RelayEvent) {
        guard case .recordingStarted(let stream, let path, _) = event else { return }
        paths.withLock { paths in
            if paths[stream] == nil, paths.count >= Self.limit, let any = paths.keys.first { paths[any] = nil }
            paths[stream] = path
        }
    }

    func path(of stream: String) -> String? {
        paths.withLock { $0[stream] }
    }
}
