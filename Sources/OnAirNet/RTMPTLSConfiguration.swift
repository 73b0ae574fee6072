import Foundation
import NIOCore
import NIOSSL

/// How an `rtmps://` connection checks the server it talks to: which certificate authorities it trusts.
///
/// Verification is always on — chain, validity dates and name — because an RTMPS ingest URL carries a
/// stream key: a client that accepted any certificate would hand the key to whoever answers. The name
/// checked is the URL's host: a host name is also sent as SNI (RFC 6066 §3) so that a server hosting
/// several names picks the right certificate; an IP literal is not allowed in SNI and is matched against
/// the certificate's IP address entries instead.
public struct RTMPTLSConfiguration: Sendable {
    /// The certificate authorities a server certificate must chain up to.
    public enum Trust: Sendable {
        /// The operating system's trusted roots (Debian: `/etc/ssl/certs`), as a browser would use.
        case systemRoots
        /// Only these authorities, read from `path` (`--ca-file`): a private CA, a test server.
        case certificateAuthorities(path: String, certificates: [NIOSSLCertificate])
    }

    /// Why a `--ca-file` cannot be used; the description names the file and what to do.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case fileMissing(path: String)
        case fileUnreadable(path: String, reason: String)
        case notPEM(path: String)
        case malformedPEM(path: String)
        /// Readable but empty (`/dev/null`, a truncated download).
        case noCertificate(path: String)

        public var description: String {
            switch self {
            case .fileMissing(let path):
                "--ca-file \(path): no such file; give the PEM file of the CA that signed the server's certificate"
            case .fileUnreadable(let path, let reason):
                "--ca-file \(path): cannot read it (\(reason))"
            case .notPEM(let path):
                "--ca-file \(path): not a PEM file of certificates (no -----BEGIN CERTIFICATE----- block); "
                    + "convert a DER file with `openssl x509 -inform der -in FILE -out ca.pem`"
            case .noCertificate(let path):
                "--ca-file \(path): the file holds no certificate; give the PEM file of the CA that signed the server's certificate"
            case .malformedPEM(let path):
                "--ca-file \(path): a certificate in it is malformed; check the file's -----BEGIN CERTIFICATE----- blocks"
            }
        }
    }

    public var trust: Trust

    /// Trusts the system's roots: what a public `rtmps://` ingest needs.
    public init() {
        trust = .systemRoots
    }

    /// Trusts only the certificates of the PEM file at `path`; throws ``Error`` if the file is missing,
    /// unreadable, not PEM or holds a malformed certificate, so a mistyped `--ca-file` fails before anything
    /// connects.
    public init(caFile path: String) throws(Error) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileMissing(path: path) }
        guard !isDirectory.boolValue else { throw .fileUnreadable(path: path, reason: "it is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .fileUnreadable(path: path, reason: "permission denied")
        }
        // FileHandle, not `contents(atPath:)`: that answers nil for a readable device such as /dev/null.
        let contents: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            contents = try handle.read(upToCount: 4 << 20) ?? Data()
        } catch {
            throw .fileUnreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard !contents.isEmpty else { throw .noCertificate(path: path) }
        guard let text = String(bytes: contents, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") else {
            throw .notPEM(path: path)
        }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(Array(contents))
        } catch {
            throw .malformedPEM(path: path)
        }
        trust = .certificateAuthorities(path: path, certificates: certificates)
    }

    /// Names what is trusted, for error messages: "the CAs in ca.pem" or "the system's trusted roots".
    public var trustDescription: String {
        switch trust {
        case .systemRoots: "the system's trusted roots"
        case .certificateAuthorities(let path, let certificates):
            "the \(certificates.count == 1 ? "CA" : "\(certificates.count) CAs") in \(path)"
        }
    }

    /// True when the operator gave a CA file.
    public var hasCAFile: Bool {
        if case .certificateAuthorities = trust { return true }
        return false
    }

    /// The client context, with full verification against ``trust``; made once per connection attempt
    /// (it is Sendable, unlike the handler).
    func makeClientContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        switch trust {
        case .systemRoots:
            configuration.trustRoots = .default
        case .certificateAuthorities(_, let certificates):
            configuration.trustRoots = .certificates(certificates)
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// The TLS handler for one connection to `host`.
    static func makeClientHandler(context: NIOSSLContext, host: String) throws -> NIOSSLClientHandler {
        // With no server name NIOSSL matches the peer's IP address against the certificate's IP entries.
        try NIOSSLClientHandler(context: context, serverHostname: isIPLiteral(host) ? nil : host)
    }

    /// IPv4 dotted quads and IPv6 literals (which are the only hosts containing a colon once unbracketed).
    static func isIPLiteral(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part).map { $0 <= 255 } == true
        }
    }
}
