import Foundation
import Synchronization

/// A second stock nginx that terminates TLS on a free loopback port and passes the plain bytes to another
/// port (its `stream` module: `listen … ssl; proxy_pass …;`): how RTMPS ingests are commonly built, and
/// how a test puts `rtmps://` in front of an ``NginxRTMPServer`` without changing it.
///
/// Needs Debian's libnginx-mod-stream (`scripts/install-deps.sh test`).
public final class NginxTLSProxy: Sendable {
    /// The TLS port.
    public let port: Int
    public let directory: TemporaryDirectory
    private let peer: PeerProcess

    /// Starts the proxy: TLS with `certificate` on a free port, forwarding to 127.0.0.1:`upstreamPort`;
    /// `alsoListeningOn` adds addresses beside loopback (a `KernelLink`'s server end).
    public init(
        forwardingTo upstreamPort: Int, certificate: TestCertificateAuthority.ServerCertificate, alsoListeningOn addresses: [String] = []
    ) throws {
        directory = try TemporaryDirectory(prefix: "onair-nginx-tls")
        port = try FreePort.loopback()
        let prefix = directory.url.path
        let module = "/usr/lib/nginx/modules/ngx_stream_module.so"
        let extraListens = addresses.map { [port] in " listen \($0):\(port) ssl;" }.joined()
        guard FileManager.default.fileExists(atPath: module) else { throw PeerError.notInstalled("libnginx-mod-stream") }
        let config = """
            load_module \(module);
            user root;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log info;
            events { worker_connections 1024; }
            stream {
                server {
                    listen 127.0.0.1:\(port) ssl;\(extraListens)
                    proxy_pass 127.0.0.1:\(upstreamPort);
                    ssl_certificate \(certificate.certificateFile.path);
                    ssl_certificate_key \(certificate.keyFile.path);
                    ssl_protocols TLSv1.2 TLSv1.3;
                }
            }

            """
        try config.write(to: directory.file("nginx.conf"), atomically: true, encoding: .utf8)
        peer = try PeerProcess(
            "nginx",
            ["-p", prefix, "-c", "\(prefix)/nginx.conf", "-e", "\(prefix)/error.log", "-g", "daemon off;"],
            in: directory.url
        )
        do {
            try FreePort.waitUntilAccepting(port, what: "nginx TLS proxy")
        } catch {
            peer.stop()
            throw PeerError.failed("the nginx TLS proxy did not start: \(peer.standardError) \(errorLog)")
        }
    }

    deinit {
        _ = peer.stop(signal: SIGTERM)
    }

    /// `rtmps://127.0.0.1:PORT/APP/NAME`.
    public func url(host: String = "127.0.0.1", app: String = "live", stream: String) -> String {
        "rtmps://\(host):\(port)/\(app)/\(stream)"
    }

    /// The proxy's log: TLS handshake failures appear here at `info`.
    public var errorLog: String { (try? String(contentsOf: directory.file("error.log"), encoding: .utf8)) ?? "" }
}
