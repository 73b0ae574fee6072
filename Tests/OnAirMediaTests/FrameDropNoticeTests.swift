import OnAirMedia
import Testing

/// Issue 28 (5): "dropped 6" at the start with no log line saying why. Every rise of the dashboard's
/// figure gets a line naming its cause, at most one line every 5 s.
@Suite("a line says why frames were dropped")
struct FrameDropNoticeTests {
    static func drops(late: Int = 0, busy: Int = 0, video: Int = 0, audio: Int = 0) -> MediaStats.Drops {
        var drops = MediaStats.Drops()
        drops.sourceLate = late
        drops.encoderBusy = busy
        drops.congestionVideoPackets = video
        drops.congestionAudioPackets = audio
        return drops
    }

    @Test("the first drops at once, by cause; later ones gathered into one line per 5 s; none new, no line")
    func lines() {
        var notice = FrameDropNotice()
        #expect(notice.line(for: Self.drops(), atMilliseconds: 0) == nil)
        #expect(notice.line(for: Self.drops(late: 6), atMilliseconds: 400) == "dropped 6 frames: encoding ran late (busy CPU or start-up)")
        #expect(notice.line(for: Self.drops(late: 6), atMilliseconds: 6_000) == nil, "no new drops")
        #expect(notice.line(for: Self.drops(late: 7), atMilliseconds: 6_100) == "dropped 1 frame: encoding ran late (busy CPU or start-up)")
        #expect(notice.line(for: Self.drops(late: 7, video: 4), atMilliseconds: 7_000) == nil, "within 5 s of the last line")
        #expect(notice.line(for: Self.drops(late: 7, busy: 2, video: 9, audio: 1), atMilliseconds: 11_100)
            == "dropped 12: 2 encoder busy, 10 slow link", "everything since the last line, by cause")
        #expect(notice.line(for: Self.drops(late: 7, busy: 2, video: 12, audio: 1), atMilliseconds: 20_000)
            == "dropped 3 packets: the link was slower than the encoder")
        #expect(notice.line(for: Self.drops(late: 7, busy: 3, video: 12, audio: 1), atMilliseconds: 30_000)
            == "dropped 1 frame: the encoder was busy (newest kept)")
    }

    @Test("every line stays whole on an 80-column event log (15 columns of stamp and tag)")
    func fitsEighty() {
        let widest = [
            FrameDropNotice.text(late: 99_999, busy: 0, congestion: 0), FrameDropNotice.text(late: 0, busy: 99_999, congestion: 0),
            FrameDropNotice.text(late: 0, busy: 0, congestion: 99_999), FrameDropNotice.text(late: 99_999, busy: 99_999, congestion: 99_999),
        ]
        for line in widest { #expect(line.count <= 78 - 15, "\(line)") }
    }
}
