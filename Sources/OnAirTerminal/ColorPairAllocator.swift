import CNcurses

/// Hands out ncurses colour pairs for (foreground, background) combinations as frames need them.
///
/// One allocator per screen, never a static counter: pairs belong to the SCREEN they were made on, and a
/// second screen (tests, a re-opened terminal) must start from pair 1 again. Pair 0 is the terminal default;
/// when the terminal runs out of pairs (or `init_extended_pair` fails) a style falls back to pair 0 and
/// keeps its attributes rather than drawing black on black.
struct ColorPairAllocator {
    private var pairs: [Key: Int32] = [:]
    private var next: Int32 = 1
    let limit: Int32
    private(set) var failures = 0

    struct Key: Hashable {
        var foreground: Int32
        var background: Int32
    }

    init(limit: Int32) {
        self.limit = limit
    }

    mutating func pair(foreground: Int32, background: Int32) -> Int32 {
        if foreground == -1 && background == -1 { return 0 }
        let key = Key(foreground: foreground, background: background)
        if let existing = pairs[key] { return existing }
        guard next < limit else { return 0 }
        guard init_extended_pair(next, foreground, background) != ERR else {
            failures += 1
            pairs[key] = 0
            return 0
        }
        pairs[key] = next
        next += 1
        return next - 1
    }

    var allocated: Int { Int(next - 1) }
}
