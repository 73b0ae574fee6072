import Foundation
import Synchronization

/// A stock nginx with libnginx-mod-rtmp on a free loopback port, run in the foreground by a test.
///
/// The configuration mirrors docs/interop/nginx-rtmp.conf (one worker, loopback only,
/// `publish_notify on`), with extra `application` directives when a test needs them
/// (e.g. `record all; record_append on;`).
public final class NginxRTMPServer: Sendable {
    public let port: Int
    public let directory: TemporaryDirectory
    private let peer: Mutex<PeerProcess>

    /// Starts nginx-rtmp with one application `app` and waits until it accepts connections. A publisher
    /// that sends nothing for `dropIdlePublisherSeconds` is disconnected by nginx. `everyAddress` listens on
    /// all of the machine's addresses (a `KernelLink`'s server end too), not loopback only.
    public init(app: String = "live", dropIdlePublisherSeconds: Int = 5, extraDirectives: [String] = [], everyAddress: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "onair-nginx")
        port = try FreePort.loopback()
        let prefix = directory.url.path
        let directives = (["live on;", "record off;", "publish_notify on;", "drop_idle_publisher \(dropIdlePublisherSeconds)s;"] + extraDirectives)
            .map { "            \($0)" }
            .joined(separator: "\n")
        let config = """
            load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
            user root;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log info;
            events { worker_connections 1024; }
            rtmp {
                server {
                    listen \(everyAddress ? "" : "127.0.0.1:")\(port);
                    chunk_size 4096;
                    application \(app) {
            \(directives)
                    }
                }
            }

            """
        try config.write(to: directory.file("nginx.conf"), atomically: true, encoding: .utf8)
        peer = Mutex(try Self.launch(in: directory, port: port))
    }

    private static func launch(in directory: TemporaryDirectory, port: Int) throws -> PeerProcess {
        let prefix = directory.url.path
        let peer = try PeerProcess(
            "nginx",
            ["-p", prefix, "-c", "\(prefix)/nginx.conf", "-e", "\(prefix)/error.log", "-g", "daemon off;"],
            in: directory.url
        )
        do {
            try FreePort.waitUntilAccepting(port, what: "nginx-rtmp")
        } catch {
            peer.stop()
            let log = (try? String(contentsOf: directory.file("error.log"), encoding: .utf8)) ?? ""
            throw PeerError.failed("nginx-rtmp did not start: \(peer.standardError) \(log)")
        }
        return peer
    }

    /// Starts the server again on the same port, as a restarted ingest would come back.
    public func restart() throws {
        let next = try Self.launch(in: directory, port: port)
        peer.withLock { $0 = next }
    }

    deinit {
        _ = peer.withLock { $0.stop(signal: SIGTERM) }
    }

    /// `rtmp://127.0.0.1:PORT/APP/NAME`.
    public func url(app: String = "live", stream: String) -> String { "rtmp://127.0.0.1:\(port)/\(app)/\(stream)" }

    public var errorLog: String { (try? String(contentsOf: directory.file("error.log"), encoding: .utf8)) ?? "" }

    public var processIdentifier: Int32 { peer.withLock { $0.processIdentifier } }

    /// Stops the server at once (SIGTERM: nginx closes every connection), as a server that dies would.
    public func stop() { peer.withLock { _ = $0.stop(signal: SIGTERM) } }
}
