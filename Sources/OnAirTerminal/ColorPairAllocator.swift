import CNcurses

/// Hands out ncurses colour pairs for (foreground, background) combinations as frames need them.
///
/// One allocator per screen, never a static counter: pairs belong to the SCREEN they were made on, and a
/// second screen (tests, a re-opened terminal) must start from pair 1 again. Pair 0 is the terminal default.
///
/// A colour preview can use more combinations over a session than the terminal has pairs. When they run
/// out, `pair` returns nil and the screen resets all pairs and repaints the frame once (old pair numbers
/// mean nothing after a reset); if one frame alone needs more pairs than exist, the rest of it falls back
/// to pair 0 and keeps its attributes rather than drawing black on black. A failed `init_extended_pair`
/// also falls back to pair 0.
struct ColorPairAllocator {
    private var pairs: [Key: Int32] = [:]
    private var next: Int32 = 1
    /// One past the highest pair number used.
    let limit: Int32
    private(set) var failures = 0

    struct Key: Hashable {
        var foreground: Int32
        var background: Int32
    }

    init(limit: Int32) {
        self.limit = limit
    }

    /// The pair for a combination, allocating it if needed; nil when every pair is taken.
    mutating func pair(foreground: Int32, background: Int32) -> Int32? {
        if foreground == -1 && background == -1 { return 0 }
        let key = Key(foreground: foreground, background: background)
        if let existing = pairs[key] { return existing }
        guard next < limit else { return nil }
        guard init_extended_pair(next, foreground, background) != ERR else {
            failures += 1
            pairs[key] = 0
            return 0
        }
        pairs[key] = next
        next += 1
        return next - 1
    }

    /// Forgets every pair (ncurses' `reset_color_pairs`), so allocation starts again from 1.
    mutating func reset() {
        reset_color_pairs()
        pairs.removeAll(keepingCapacity: true)
        next = 1
    }

    var allocated: Int { Int(next - 1) }
}
