import NIOCore
import NIOSSL
import NIOTLS
import OnAirCore

/// Sits between the TLS handler and ``RTMPClientChannelHandler`` and turns NIOSSL's errors into the
/// ``RTMPClient/Error`` an operator can act on: an untrusted certificate, a certificate for another name,
/// or a peer that does not speak TLS at all.
///
/// NIOSSL closes the connection after a failed handshake, so none of these can fall back to plain RTMP:
/// the RTMP handshake never gets a byte through.
final class RTMPTLSErrorTranslator: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The redacted URL, named in every message.
    private let url: String
    private let host: String
    private let trustDescription: String
    /// Set when NIOSSL reports the handshake done, so a timeout can say which handshake stalled.
    private var tlsHandshakeCompleted = false

    init(url: StreamURL, trustDescription: String) {
        self.url = url.redacted
        self.host = url.host
        self.trustDescription = trustDescription
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.fireErrorCaught(translate(error))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { tlsHandshakeCompleted = true }
        context.fireUserInboundEventTriggered(event)
    }

    /// What a handshake timeout means: the TLS handshake stalled (a plain RTMP server waits for the rest
    /// of a "C1" that never comes), or, once TLS is up, the RTMP handshake did.
    var handshakeTimeoutError: RTMPClient.Error {
        tlsHandshakeCompleted
            ? .handshakeTimedOut
            : .tlsHandshakeFailed(url: url, reason: "no TLS answer within the handshake timeout")
    }

    /// The operator's view of `error`; errors that are not NIOSSL's pass unchanged.
    func translate(_ error: any Error) -> any Error {
        if let extra = error as? NIOSSLExtraError {
            if extra == .failedToValidateHostname { return RTMPClient.Error.tlsCertificateNameMismatch(url: url, host: host) }
            return RTMPClient.Error.tlsHandshakeFailed(url: url, reason: "\(extra)")
        }
        switch error {
        case NIOSSLError.handshakeFailed(let reason):
            if "\(reason)".contains("CERTIFICATE_VERIFY_FAILED") {
                return RTMPClient.Error.tlsCertificateNotTrusted(url: url, trusted: trustDescription)
            }
            if "\(reason)".contains("EOF during handshake") {
                // A plain RTMP server (onair serve among them) reads the ClientHello as a bad C0 and hangs up.
                return RTMPClient.Error.tlsHandshakeFailed(url: url, reason: "the server closed the connection during it")
            }
            return RTMPClient.Error.tlsHandshakeFailed(url: url, reason: Self.shortReason(reason))
        case NIOSSLError.uncleanShutdown:
            // The peer closed TCP without a TLS close_notify: to RTMP, simply a lost connection.
            return RTMPClient.Error.connectionLost
        case let error as NIOSSLError:
            return RTMPClient.Error.tlsHandshakeFailed(url: url, reason: "\(error)")
        default:
            return error
        }
    }

    /// BoringSSL's reason names (`WRONG_VERSION_NUMBER`, `TLSV1_ALERT_…`), without codes and file paths.
    static func shortReason(_ error: BoringSSLError) -> String {
        let text = "\(error)"
        let names = text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
            .filter { $0.count > 3 && $0.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } && $0.contains("_") }
        let unique = names.reduce(into: [String]()) { if !$0.contains(String($1)) { $0.append(String($1)) } }
        return unique.isEmpty ? text : unique.joined(separator: ", ")
    }
}
