import Foundation

/// A real link made by the kernel, for tests that must not trust OnAir's own stage: a network namespace
/// for the publisher, joined to the test's namespace by a veth pair whose publisher end has a token bucket
/// (`tc qdisc tbf`), as scripts/bench.d/abr.sh builds it. A process started with ``command(_:)`` runs in
/// the namespace and reaches the test's servers at ``serverAddress`` (which they must listen on).
///
/// Needs root, `ip` and `tc` (``isAvailable``). Everything is deleted when the value goes away (the
/// namespace, and with it both veth ends); nothing else on the machine is touched, so tests running beside
/// it on loopback see no cap.
public final class KernelLink: Sendable {
    public let namespace: String
    /// The test's end of the veth pair (in the test's namespace): servers listen here.
    public let serverAddress: String
    public let publisherAddress: String
    private let device: String

    /// True when the test runs as root and `ip` and `tc` are installed.
    public static var isAvailable: Bool {
        getuid() == 0 && ["/usr/sbin/ip", "/sbin/ip"].contains { FileManager.default.isExecutableFile(atPath: $0) }
            && ["/usr/sbin/tc", "/sbin/tc"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Makes the namespace and the link, capped at `capBitsPerSecond` from the start (nil: uncapped).
    public init(capBitsPerSecond: Int?) throws {
        Self.removeStaleLinks()
        let id = try Self.freeSubnet(preferring: Int(getpid()) % 200 + 20)
        let unique = UInt16.random(in: 0...UInt16.max)
        namespace = "onair-kl-\(getpid())-\(unique)"
        device = "oakl\(unique)"
        // 10.214.X.0/24, X from the pid unless another link holds it: never the bench's 10.213.*.
        serverAddress = "10.214.\(id).2"
        publisherAddress = "10.214.\(id).1"
        try Self.run("ip", ["netns", "add", namespace])
        do {
            try Self.run("ip", ["-n", namespace, "link", "set", "lo", "up"])
            try Self.run("ip", ["link", "add", device, "netns", namespace, "type", "veth", "peer", "name", "\(device)s"])
            try Self.run("ip", ["-n", namespace, "addr", "add", "\(publisherAddress)/24", "dev", device])
            try Self.run("ip", ["addr", "add", "\(serverAddress)/24", "dev", "\(device)s"])
            try Self.run("ip", ["-n", namespace, "link", "set", device, "up"])
            try Self.run("ip", ["link", "set", "\(device)s", "up"])
            try Self.run("tc", ["-n", namespace, "qdisc", "add", "dev", device, "root", "tbf"] + Self.bucket(capBitsPerSecond))
        } catch {
            _ = try? Self.run("ip", ["netns", "del", namespace])
            throw error
        }
    }

    deinit {
        _ = try? Self.run("ip", ["netns", "del", namespace])
    }

    /// Caps the link (nil: lifts the cap) at once, as a weak signal comes and goes.
    public func cap(_ bitsPerSecond: Int?) throws {
        try Self.run("tc", ["-n", namespace, "qdisc", "change", "dev", device, "root", "tbf"] + Self.bucket(bitsPerSecond))
    }

    /// `ip netns exec NAMESPACE` before `command`: the arguments of a process to start inside the link.
    public func command(_ command: [String]) -> [String] {
        ["ip", "netns", "exec", namespace] + command
    }

    /// Deletes the links of test processes that are gone (killed before `deinit` ran): their root-side
    /// address would route this link's subnet to a dead namespace (seen: "no TCP connection to 10.214.50.2"
    /// when a new test process's pid gave the same X as a killed one's).
    static func removeStaleLinks() {
        guard let list = try? run("ip", ["netns", "list"]) else { return }
        for line in list.split(separator: "\n") {
            let name = String(line.split(separator: " ").first ?? "")
            let parts = name.split(separator: "-")
            guard parts.count == 4, name.hasPrefix("onair-kl-"), let pid = Int32(parts[2]), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = try? run("ip", ["netns", "del", name])     // the veth pair goes with its end in the namespace
        }
    }

    /// The first X (from `preferred`, within 20…219) whose 10.214.X.0/24 no address of this host is in.
    static func freeSubnet(preferring preferred: Int) throws -> Int {
        let addresses = (try? run("ip", ["-o", "-4", "addr", "show"])) ?? ""
        for offset in 0..<200 {
            let candidate = (preferred - 20 + offset) % 200 + 20
            if !addresses.contains(" 10.214.\(candidate).") { return candidate }
        }
        throw PeerError.failed("no free 10.214.X.0/24 for a kernel link: remove stale onair-kl-* namespaces (ip netns list)")
    }

    /// The bucket: one limit (100 kB, the bench's) in every state; uncapped is 100 Mbit/s.
    private static func bucket(_ bitsPerSecond: Int?) -> [String] {
        guard let bitsPerSecond else { return ["rate", "100mbit", "burst", "64kb", "limit", "100kb"] }
        return ["rate", "\(bitsPerSecond)bit", "burst", "8kb", "limit", "100kb"]
    }

    @discardableResult
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory
        let result = try PeerProcess.run(tool, arguments, in: directory, timeout: .seconds(30))
        guard result.status == 0 else {
            throw PeerError.failed("\(tool) \(arguments.joined(separator: " ")): \(result.error)")
        }
        return result.output
    }
}
