import OnAirControl
import OnAirCore
import OnAirRelay

/// Turns relay events into `onair serve`'s output: an ``OnAirEvent`` (side `relay`) for `--headless`,
/// or one human-readable line for stderr. Kinds: `listening`, `connection`, `disconnection`, `publish`,
/// `rejected`, `publishRefused`, `unpublish`, `play`, `playRefused`, `playStop`, `drop`, `stats`, `recording`,
/// `recordingStopped`, `recordingFailed`, `acceptPaused`, `error`, `stopped`.
public enum ServeEventFormatter {
    public static func headless(_ event: RelayEvent, time: SessionTime) -> OnAirEvent {
        let (kind, details) = describe(event)
        return OnAirEvent(time: time, side: .relay, .reported(kind: kind, details: details))
    }

    /// One line for a terminal: control characters escaped whatever an event carries (GitHub issue 14).
    public static func line(_ event: RelayEvent) -> String {
        RelayLogText.terminalSafe(rawLine(event))
    }

    private static func rawLine(_ event: RelayEvent) -> String {
        switch event {
        case .listening(let host, let port):
            "relay: listening on rtmp://\(StreamURL.bracketed(host)):\(port)/live/<stream>"
        case .connectionOpened(let id, let remote):
            "relay: connection #\(id) from \(remote)"
        case .connectionClosed(let id, let bytesIn, let bytesOut):
            "relay: connection #\(id) closed (\(bytesIn) bytes in, \(bytesOut) bytes out)"
        case .connectionRejected(let id, let remote, let reason):
            "relay: connection #\(id) from \(remote) closed: \(reason)"
        case .publishStarted(let stream, let type, let id, let recording):
            "relay: #\(id) publishes \(stream) (\(type.rawValue))" + (recording.map { ", recording to \($0)" } ?? "")
        case .publishRefused(let stream, let id, let code, let reason):
            "relay: #\(id) may not publish \"\(stream)\": \(code) — \(reason)"
        case .publishStopped(let stream, let id, let reason, let bytesIn):
            "relay: #\(id) stopped publishing \(stream) (\(reason.rawValue), \(bytesIn) bytes in)"
        case .playStarted(let stream, let id, let waiting):
            "relay: #\(id) plays \(stream)" + (waiting ? " (waiting for a publisher)" : "")
        case .playRefused(let stream, let id, let reason):
            "relay: #\(id) may not play \"\(stream)\": \(reason)"
        case .playStopped(let stream, let id, let bytesOut, let dropped):
            "relay: #\(id) stopped playing \(stream) (\(bytesOut) bytes out, \(dropped) messages dropped)"
        case .playerDropping(let stream, let id, let dropped):
            "relay: #\(id) is too slow for \(stream): skipping to the next keyframe (\(dropped) messages dropped so far)"
        case .streamStats(let stream, let bytesIn, let bytesOut, let players, let dropped):
            "relay: \(stream): \(bytesIn) bytes in, \(bytesOut) bytes out, \(players) players, \(dropped) dropped"
        case .recordingStarted(let stream, let path, let append):
            "relay: \(stream): \(append ? "appending to" : "recording to") \(path)"
        case .recordingStopped(let stream, let path, let bytes):
            "relay: \(stream): recording \(path) closed (\(bytes) bytes this session)"
        case .recordingFailed(let stream, let path, let reason):
            "relay: \(stream): recording \(path) failed: \(reason)"
        case .acceptPaused(let reason, let retry, let open):
            "relay: cannot accept connections (\(reason)) with \(open) open: pausing accept for \(retry) ms at a time (raise `ulimit -n`?)"
        case .protocolError(let id, let reason):
            "relay: #\(id) closed: \(reason)"
        case .peerWarning(let id, let reason):
            "relay: #\(id) warning: \(reason)"
        case .stopped:
            "relay: stopped"
        case .serverInterruption(let action, let milliseconds, let ended):
            ended ? "relay: \(action) over" : "relay: \(action)\(milliseconds > 0 ? " for \(milliseconds) ms" : "") (operator)"
        }
    }

    static func describe(_ event: RelayEvent) -> (String, [String: JSONValue]) {
        func n(_ value: UInt64) -> JSONValue { .integer(Int64(clamping: value)) }
        func i(_ value: Int) -> JSONValue { .integer(Int64(value)) }
        switch event {
        case .listening(let host, let port):
            return ("listening", ["host": .string(host), "port": i(port), "url": .string("rtmp://\(StreamURL.bracketed(host)):\(port)/live")])
        case .connectionOpened(let id, let remote):
            return ("connection", ["connection": i(id), "remote": .string(remote)])
        case .connectionClosed(let id, let bytesIn, let bytesOut):
            return ("disconnection", ["connection": i(id), "bytesIn": n(bytesIn), "bytesOut": n(bytesOut)])
        case .connectionRejected(let id, let remote, let reason):
            return ("rejected", ["connection": i(id), "remote": .string(remote), "code": .string(reason.code),
                                 "reason": .string(reason.description)])
        case .publishStarted(let stream, let type, let id, let recording):
            return ("publish", ["stream": .string(stream), "type": .string(type.rawValue), "connection": i(id),
                                "recording": recording.map(JSONValue.string) ?? .null])
        case .publishRefused(let stream, let id, let code, let reason):
            return ("publishRefused", ["stream": .string(stream), "connection": i(id), "code": .string(code), "reason": .string(reason)])
        case .publishStopped(let stream, let id, let reason, let bytesIn):
            return ("unpublish", ["stream": .string(stream), "connection": i(id), "reason": .string(reason.rawValue), "bytesIn": n(bytesIn)])
        case .playStarted(let stream, let id, let waiting):
            return ("play", ["stream": .string(stream), "connection": i(id), "waiting": .bool(waiting)])
        case .playRefused(let stream, let id, let reason):
            return ("playRefused", ["stream": .string(stream), "connection": i(id), "reason": .string(reason)])
        case .playStopped(let stream, let id, let bytesOut, let dropped):
            return ("playStop", ["stream": .string(stream), "connection": i(id), "bytesOut": n(bytesOut), "droppedMessages": n(dropped)])
        case .playerDropping(let stream, let id, let dropped):
            return ("drop", ["stream": .string(stream), "connection": i(id), "droppedMessages": n(dropped)])
        case .streamStats(let stream, let bytesIn, let bytesOut, let players, let dropped):
            return ("stats", ["stream": .string(stream), "bytesIn": n(bytesIn), "bytesOut": n(bytesOut), "players": i(players),
                              "droppedMessages": n(dropped)])
        case .recordingStarted(let stream, let path, let append):
            return ("recording", ["stream": .string(stream), "path": .string(path), "append": .bool(append)])
        case .recordingStopped(let stream, let path, let bytes):
            return ("recordingStopped", ["stream": .string(stream), "path": .string(path), "bytes": n(bytes)])
        case .recordingFailed(let stream, let path, let reason):
            return ("recordingFailed", ["stream": .string(stream), "path": .string(path), "reason": .string(reason)])
        case .acceptPaused(let reason, let retry, let open):
            return ("acceptPaused", ["reason": .string(reason), "retryMs": i(retry), "openConnections": i(open)])
        case .protocolError(let id, let reason):
            return ("error", ["connection": i(id), "reason": .string(reason)])
        case .peerWarning(let id, let reason):
            return ("warning", ["connection": i(id), "reason": .string(reason)])
        case .stopped:
            return ("stopped", [:])
        case .serverInterruption(let action, let milliseconds, let ended):
            return ("serverInterruption", ["action": .string(action), "durationMs": i(milliseconds), "ended": .bool(ended)])
        }
    }
}
