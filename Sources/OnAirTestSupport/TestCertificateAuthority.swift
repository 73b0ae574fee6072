import Foundation

/// A throwaway certificate authority made with the stock `openssl` tool, for `rtmps://` tests.
///
/// Each test makes its own (an ECDSA P-256 key, valid two days) in a ``TemporaryDirectory``, so no key or
/// certificate is committed and none outlives the test. A second authority is how a test shows that a
/// certificate signed by someone else is refused.
public struct TestCertificateAuthority: Sendable {
    /// A server's certificate and key, both PEM.
    public struct ServerCertificate: Sendable {
        public let certificateFile: URL
        public let keyFile: URL
    }

    /// The authority's certificate (PEM): what `--ca-file` takes.
    public let certificateFile: URL
    private let keyFile: URL
    private let directory: URL
    private let name: String

    /// Makes a self-signed CA called `name` in `directory`.
    public init(name: String, in directory: TemporaryDirectory) throws {
        self.name = name
        self.directory = directory.url
        let stem = Self.fileStem(name)
        certificateFile = directory.file("\(stem).pem")
        keyFile = directory.file("\(stem)-key.pem")
        let config = directory.file("\(stem).cnf")
        try """
            [req]
            distinguished_name = dn
            x509_extensions = ca
            prompt = no
            [dn]
            CN = \(name)
            [ca]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash

            """.write(to: config, atomically: true, encoding: .utf8)
        try Self.openssl([
            "req", "-x509", "-config", config.path, "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", keyFile.path, "-out", certificateFile.path, "-days", "2",
        ], in: directory.url)
    }

    /// Issues a server certificate for `dnsNames` and `ipAddresses` (its subject alternative names, which
    /// clients check), signed by this authority.
    public func issueServerCertificate(
        dnsNames: [String] = ["localhost"],
        ipAddresses: [String] = ["127.0.0.1"]
    ) throws -> ServerCertificate {
        let stem = Self.fileStem(name) + "-server"
        let certificate = directory.appendingPathComponent("\(stem).pem")
        let key = directory.appendingPathComponent("\(stem)-key.pem")
        let request = directory.appendingPathComponent("\(stem).csr")
        let extensions = directory.appendingPathComponent("\(stem).ext")
        let names = dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }
        try """
            subjectAltName = \(names.joined(separator: ", "))
            basicConstraints = CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth

            """.write(to: extensions, atomically: true, encoding: .utf8)
        try Self.openssl([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key.path, "-out", request.path, "-subj", "/CN=\(dnsNames.first ?? ipAddresses.first ?? "server")",
        ], in: directory)
        try Self.openssl([
            "x509", "-req", "-in", request.path, "-CA", certificateFile.path, "-CAkey", keyFile.path,
            "-set_serial", "0x" + String(UInt64.random(in: 1 ... .max), radix: 16), "-days", "2",
            "-out", certificate.path, "-extfile", extensions.path,
        ], in: directory)
        return ServerCertificate(certificateFile: certificate, keyFile: key)
    }

    private static func fileStem(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    private static func openssl(_ arguments: [String], in directory: URL) throws {
        let result = try PeerProcess.run("openssl", arguments, in: directory, timeout: .seconds(30))
        guard result.status == 0 else {
            throw PeerError.failed("openssl \(arguments.prefix(2).joined(separator: " ")) failed (\(result.status)): \(result.error)")
        }
    }
}
