#if canImport(Glibc)
import Glibc
#endif
import OnAirCore

/// One direction of a connection through the link impairment stage: a token bucket for the cap, a delay
/// line, and the bytes due but not yet taken by the destination socket.
struct LinkDirection {
    enum ReadResult { case bytes(Int), endOfStream, wouldBlock, failed }

    let from: Int32
    let to: Int32
    let isUpstream: Bool
    private var bucket: LinkTokenBucket?
    private var delayLine: [(release: ContinuousClock.Instant, bytes: [UInt8])] = []
    private var delayLineBytes = 0
    private var outbound: [UInt8] = []
    private var outboundSent = 0
    private var sourceClosed = false
    private var limit = Self.baseLimit
    /// What the direction holds on top of its delay line: one read's worth. More only hides a slow path
    /// from the client's socket (a regression the throttled-link soak measured: 3.5 s of frames in transit).
    static let baseLimit = 16 << 10
    /// Bytes written to the destination socket so far (what its kernel took, not yet what the peer got).
    private(set) var delivered = 0

    init(from: Int32, to: Int32, isUpstream: Bool) {
        self.from = from
        self.to = to
        self.isUpstream = isUpstream
    }

    /// Bytes read from the source and not yet delivered.
    var heldBytes: Int { delayLineBytes + outbound.count - outboundSent }

    /// The source closed and everything it sent has been delivered (and the close passed on).
    var isFinished: Bool { sourceClosed && heldBytes == 0 }

    /// Follows the state's cap and delay: a new bucket when the cap changes; a delay line long enough to
    /// carry the path's rate for the whole delay (so a delay adds latency without lowering the rate), bounded.
    mutating func configure(for state: LinkImpairmentState) {
        if bucket?.bitsPerSecond != state.capBitsPerSecond {
            bucket = state.capBitsPerSecond.map { LinkTokenBucket(bitsPerSecond: $0) }
        }
        let rateBytes = Double(state.capBitsPerSecond ?? 200_000_000) / 8
        let seconds = Double(state.delay.wholeMilliseconds) / 1000
        limit = min(16 << 20, Self.baseLimit + Int(rateBytes * seconds))
    }

    /// Moves what is due to the outbound buffer and returns how many bytes may be read now (0: none).
    mutating func prepare(_ state: LinkImpairmentState, now: ContinuousClock.Instant) -> Int {
        guard state.isUp else { return 0 }
        if outboundSent == outbound.count {
            outbound.removeAll(keepingCapacity: true)
            outboundSent = 0
            while let first = delayLine.first, first.release <= now, outbound.count < 64 << 10 {
                outbound += first.bytes
                delayLineBytes -= first.bytes.count
                delayLine.removeFirst()
            }
        }
        guard !sourceClosed, heldBytes < limit else { return 0 }
        let room = limit - heldBytes
        guard var bucket else { return room }
        let allowance = bucket.available(now: now)
        self.bucket = bucket
        return min(room, allowance)
    }

    func wantsWrite(_ state: LinkImpairmentState) -> Bool {
        state.isUp && outboundSent < outbound.count
    }

    /// When the loop must look again: the next delay-line release, or the next tokens.
    func nextEvent(now: ContinuousClock.Instant) -> Duration? {
        var soonest: Duration?
        if outboundSent == outbound.count, let first = delayLine.first {
            soonest = max(.milliseconds(1), first.release - now)
        }
        if !sourceClosed, let bucket, bucket.isEmpty {
            let tokens = Duration.milliseconds(Int64(bucket.millisecondsUntilAvailable))
            soonest = soonest.map { min($0, tokens) } ?? tokens
        }
        return soonest
    }

    mutating func read(into buffer: inout [UInt8], allowance: Int, releaseAt: ContinuousClock.Instant) -> ReadResult {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(from, $0.baseAddress, min(allowance, $0.count)) }
        if count > 0 {
            bucket?.spend(count)
            delayLine.append((releaseAt, Array(buffer[0..<count])))
            delayLineBytes += count
            return .bytes(count)
        }
        if count == 0 {
            sourceClosed = true
            if heldBytes == 0 { shutdown(to, Int32(SHUT_WR)) }
            return .endOfStream
        }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock : .failed
    }

    /// Writes what is due; returns the bytes written, nil when the destination is gone.
    mutating func flush() -> Int? {
        var written = 0
        while outboundSent < outbound.count {
            let result = outbound.withUnsafeBytes {
                send(to, $0.baseAddress! + outboundSent, outbound.count - outboundSent, Int32(MSG_NOSIGNAL))
            }
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return nil
            }
            outboundSent += result
            written += result
            delivered += result
        }
        if sourceClosed, heldBytes == 0 { shutdown(to, Int32(SHUT_WR)) }
        return written
    }
}

/// Bytes a capped direction may read: the cap per second, at most a tenth of a second saved up; reads wait
/// for at least one segment's worth so that a slow cap is not a stream of tiny reads.
struct LinkTokenBucket {
    let bitsPerSecond: Int
    private let bytesPerSecond: Double
    private let burst: Double
    private let minimumRead: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant?

    init(bitsPerSecond: Int) {
        self.bitsPerSecond = bitsPerSecond
        bytesPerSecond = max(1, Double(bitsPerSecond) / 8)
        burst = max(1, bytesPerSecond / 10)
        minimumRead = min(burst, 1460)
        tokens = 0
    }

    mutating func available(now: ContinuousClock.Instant) -> Int {
        if let last {
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(burst, tokens + seconds * bytesPerSecond)
        } else {
            tokens = minimumRead
        }
        last = now
        return tokens >= minimumRead ? Int(tokens) : 0
    }

    var isEmpty: Bool { tokens < minimumRead }

    mutating func spend(_ bytes: Int) { tokens -= Double(bytes) }

    var millisecondsUntilAvailable: Int {
        let missing = max(0, minimumRead - tokens)
        return max(1, Int((missing / bytesPerSecond * 1000).rounded(.up)))
    }
}
