import OnAirCore
import OnAirRTMP

/// A file of its own, beside the clients' configuration, so the fuzz targets that drive the client's protocol
/// handler compile it without the networking (`RTMPClient.swift` names the TLS configuration, NIOSSL).
extension RTMPClient {
    /// Why a client could not connect, publish or play, or why it stopped.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case connectionRefused(host: String, port: Int)
        case nameNotResolved(host: String)
        case connectTimedOut(host: String, port: Int)
        case tlsCertificateNotTrusted(url: String, trusted: String)
        case tlsCertificateNameMismatch(url: String, host: String)
        case tlsHandshakeFailed(url: String, reason: String)
        case handshakeFailed(String)
        case handshakeTimedOut
        case connectRejected(RTMPStatus?)
        case publishRejected(RTMPStatus)
        case commandFailed(command: String, status: RTMPStatus?)
        case responseTimedOut(command: String)
        case protocolViolation(String)
        case connectionLost
        case notPublishing
        /// The socket was reset (ECONNRESET, EPIPE, …): a peer or a network path went.
        case connectionReset

        public var description: String {
            switch self {
            case .connectionRefused(let host, let port):
                "connection refused by \(StreamURL.bracketed(host)):\(port); is the RTMP server running and listening on that port?"
            case .nameNotResolved(let host):
                "cannot resolve host name \(host); check the URL's host"
            case .connectTimedOut(let host, let port):
                "no TCP connection to \(StreamURL.bracketed(host)):\(port) within the timeout; check the address and firewall"
            case .tlsCertificateNotTrusted(let url, let trusted):
                "\(url): TLS certificate not trusted (it does not chain up to \(trusted), or it has expired): "
                    + "pass --ca-file with the CA that signed the server's certificate"
            case .tlsCertificateNameMismatch(let url, let host):
                "\(url): TLS certificate not valid for \(host) (the names it was issued for do not include it): "
                    + "use the host name the certificate names"
            case .tlsHandshakeFailed(let url, let reason):
                "\(url): TLS handshake failed (\(reason)); is this port an rtmps:// (TLS) server? A plain RTMP port needs rtmp://"
            case .handshakeFailed(let reason):
                "RTMP handshake failed: \(reason)"
            case .handshakeTimedOut:
                "the server accepted TCP but did not complete the RTMP handshake; is this port an RTMP server?"
            case .connectRejected(let status?):
                "the server rejected connect: \(status.code) \(status.description); check the application name"
            case .connectRejected(nil):
                "the server closed the connection without answering connect; check the application name and the server's connection limits and log"
            case .publishRejected(let status):
                "the server refused to publish: \(status.code)\(status.description.isEmpty ? "" : " (\(status.description))")"
                    + (status.code != .publishBadName ? ""
                        : status.description.lowercased().contains("already publishing")
                        ? "; the server still holds a publisher of this name (an earlier connection it has not yet seen go, or another one): wait, or pick another"
                        : "; the stream name is taken or invalid, pick another")
            case .commandFailed(let command, let status):
                "\(command) failed\(status.map { ": \($0.code) \($0.description)" } ?? "")"
            case .responseTimedOut(let command):
                "no answer to \(command) within the timeout; the server is stalled or does not support it"
            case .protocolViolation(let reason):
                "the server broke the RTMP protocol: \(reason)"
            case .connectionLost:
                "the connection to the RTMP server was lost; reconnect to continue"
            case .notPublishing:
                "not publishing: call start() first, or the stream was stopped"
            case .connectionReset:
                "the connection was reset (peer or path gone)"
            }
        }
    }
}
