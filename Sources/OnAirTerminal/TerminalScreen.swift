import CNcurses
import OnAirConsole

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The console's terminal: the only type that talks to ncurses. It blits `CellBuffer` frames (changed
/// cells only) and turns key presses into `ConsoleKey`s.
///
/// Lifecycle:
/// ```
/// let screen = try TerminalScreen.open()      // setlocale, signal handlers, newterm, colours
/// defer { screen.close() }                      // endwin on every path (also done by deinit)
///                                               // and a crash guard restores it on a fatal signal
/// while true {
///     screen.draw(frame)                         // only changed cells are written
///     switch screen.nextEvent(timeoutMilliseconds: 100) { … }   // key, resize, stop signal, or nil
/// }
/// ```
/// ncurses is process-global and not thread-safe: use one screen at a time, from one thread. Tests that
/// only check what was drawn use `InMemoryTerminal` (OnAirConsole) through `TerminalBackend` instead.
public final class TerminalScreen: TerminalBackend {
    /// Why the console cannot start, in one line for the operator.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        case notATerminal
        case unknownTerminal(String)
        /// A terminal type that cannot place text at a position (`TERM=dumb`): a dashboard is impossible.
        case cannotAddressCursor(String)
        case cannotOpen(String)

        public var description: String {
            switch self {
            case .notATerminal:
                "the console needs a terminal on stdin and stdout; use --headless for JSON Lines instead"
            case .unknownTerminal(let name):
                "unknown terminal type '\(name)' (TERM); set TERM (e.g. xterm-256color) or use --headless"
            case .cannotAddressCursor(let name):
                "TERM=\(name) cannot place text on the screen; use --headless (JSON Lines), or TERM=xterm-256color"
            case .cannotOpen(let what): "cannot open the terminal: \(what)"
            }
        }
    }

    /// Something the event loop must react to.
    public typealias Event = TerminalEvent

    /// How to open the screen; the defaults are the process's stdin/stdout and `$TERM`.
    public struct Options: Sendable {
        public var input: Int32 = 0
        public var output: Int32 = 1
        /// A terminfo name, or nil for `$TERM`.
        public var terminalName: String?
        /// Forces a colour mode (`NO_COLOR`, `--theme monochrome`); nil uses what the terminal reports.
        public var colorMode: TerminalColorMode?
        /// Draw ASCII only (true), or whatever Unicode the console uses (false); nil decides from the
        /// locale's character set (`LANG=C` → ASCII).
        public var asciiOnly: Bool?
        /// How long a lone Esc waits for the rest of an escape sequence.
        public var escapeDelayMilliseconds: Int32 = 25
        /// At most this many colour pairs (nil: all the terminal has). Tests use it to exercise exhaustion.
        public var colorPairLimit: Int32?

        public init(input: Int32 = 0, output: Int32 = 1, terminalName: String? = nil, colorMode: TerminalColorMode? = nil) {
            self.input = input
            self.output = output
            self.terminalName = terminalName
            self.colorMode = colorMode
        }
    }

    /// What the last `draw` did: for tests and the console's own performance line.
    public struct FrameStatistics: Sendable, Equatable {
        public var cellsWritten = 0
        /// Writes ncurses refused (other than the bottom-right cell, which always "fails" but draws).
        public var failedWrites = 0
        /// 1 when the colour pairs ran out, were reset, and the whole frame was repainted.
        public var colorPairResets = 0
        /// Cells drawn in the default colours because one frame needed more pairs than the terminal has.
        public var cellsWithoutPair = 0
    }

    private var screen: OpaquePointer?
    private var outputFile: UnsafeMutablePointer<FILE>?
    private var inputFile: UnsafeMutablePointer<FILE>?
    private var window: UnsafeMutablePointer<WINDOW>?
    private var previous: CellBuffer?
    private var pairs: ColorPairAllocator
    public let palette: TerminalPalette
    /// True when the locale is not UTF-8 (or ASCII was asked for): frames are drawn with `asciiOnly`.
    public let drawsASCIIOnly: Bool
    public private(set) var lastFrame = FrameStatistics()

    /// The colour mode in use.
    public var colorMode: TerminalColorMode { palette.mode }

    /// Opens the terminal: refuses without a tty, installs the stop-signal handler before `newterm`,
    /// and picks the colour mode from `COLORS` (256 → 8 → monochrome).
    public static func open(_ options: Options = Options()) throws(Error) -> TerminalScreen {
        guard isatty(options.input) == 1, isatty(options.output) == 1 else { throw .notATerminal }
        // Without the locale, ncurses draws every box-drawing and block character blank.
        _ = setlocale(LC_ALL, "")
        TerminalSignals.install()
        return try TerminalScreen(options: options)
    }

    private init(options: Options) throws(Error) {
        guard let output = onair_write_file(options.output), let input = onair_read_file(options.input) else {
            throw .cannotOpen("fdopen failed (errno \(errno))")
        }
        onair_crash_guard_save_modes(options.input)
        drawsASCIIOnly = options.asciiOnly ?? !Self.localeIsUTF8
        let name = options.terminalName
        let created: OpaquePointer? = name.map { newterm($0, output, input) } ?? newterm(nil, output, input)
        guard let created else {
            fclose(output)
            fclose(input)
            throw .unknownTerminal(name ?? getenv("TERM").map { String(cString: $0) } ?? "")
        }
        _ = set_term(created)
        // A terminal without cursor addressing (`cup`: dumb, a printing terminal) cannot show a dashboard;
        // refuse before anything is drawn, whatever its name.
        if !Self.canAddressCursor {
            _ = endwin()
            delscreen(created)
            fclose(output)
            fclose(input)
            throw .cannotAddressCursor(name ?? getenv("TERM").map { String(cString: $0) } ?? "")
        }
        screen = created
        outputFile = output
        inputFile = input
        let window = onair_stdscr()
        self.window = window

        var hasDefaults = false
        var colors = 0
        if has_colors(), start_color() != ERR {
            colors = Int(onair_COLORS())
            hasDefaults = use_default_colors() != ERR
        }
        let mode = options.colorMode ?? TerminalColorMode.forTerminal(colors: colors)
        palette = TerminalPalette(mode: mode, hasDefaultColors: hasDefaults)
        let terminalPairs = max(1, onair_COLOR_PAIRS())
        pairs = ColorPairAllocator(limit: mode == .monochrome ? 1 : min(terminalPairs, options.colorPairLimit.map { $0 + 1 } ?? terminalPairs))

        _ = cbreak()
        _ = noecho()
        _ = nonl()
        _ = keypad(window, true)
        _ = leaveok(window, true)
        _ = curs_set(0)
        _ = set_escdelay(options.escapeDelayMilliseconds)
        // The screen's own descriptors (duplicates): the crash guard silences them without touching the
        // operator's stdin and stdout, where Swift's backtracer and the shell go on.
        onair_crash_guard_install(fileno(output), fileno(input))
    }

    deinit {
        close()
    }

    /// Opens the terminal, runs `body`, and restores the terminal however `body` ends (return or throw).
    public static func run<Result>(
        _ options: Options = Options(), _ body: (TerminalScreen) throws -> Result
    ) throws -> Result {
        let screen = try open(options)
        defer { screen.close() }
        return try body(screen)
    }

    /// Restores the terminal (`endwin`) and frees the screen. Safe to call more than once.
    public func close() {
        guard let screen else { return }
        _ = set_term(screen)
        _ = endwin()
        onair_crash_guard_remove()
        delscreen(screen)
        self.screen = nil
        window = nil
        if let outputFile { fclose(outputFile) }
        if let inputFile { fclose(inputFile) }
        outputFile = nil
        inputFile = nil
        TerminalSignals.uninstall()
    }

    /// The terminal's size in cells.
    public var size: (width: Int, height: Int) {
        guard let window else { return (0, 0) }
        var rows: Int32 = 0
        var columns: Int32 = 0
        onair_getmaxyx(window, &rows, &columns)
        return (Int(columns), Int(rows))
    }

    /// Forgets the previous frame so the next `draw` writes every cell (after a resize, or on Ctrl-L).
    public func invalidate() {
        previous = nil
        if let window { _ = clearok(window, true) }
    }

    /// Whether the current terminal's terminfo entry has `cup` (tigetstr answers nil when it is absent,
    /// and -1 when the name is not a string capability).
    static var canAddressCursor: Bool {
        guard let cup = tigetstr("cup") else { return false }
        return Int(bitPattern: cup) != -1
    }

    /// Whether the character set of the locale `setlocale(LC_ALL, "")` chose is UTF-8.
    static var localeIsUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// Writes the cells of `buffer` that differ from the previous frame, then updates the terminal once.
    public func draw(_ buffer: CellBuffer) {
        guard let window, let screen else { return }
        let buffer = drawsASCIIOnly ? buffer.asciiOnly(monochrome: palette.mode == .monochrome) : buffer
        _ = set_term(screen)
        if let previous, previous.width != buffer.width || previous.height != buffer.height { invalidate() }
        var stats = FrameStatistics()
        if !blit(buffer, into: window, stats: &stats, allowPairReset: true) {
            // The pairs ran out and were reset: every colour on screen is stale, so repaint it all.
            stats.colorPairResets = 1
            invalidate()
            _ = blit(buffer, into: window, stats: &stats, allowPairReset: false)
        }
        _ = wnoutrefresh(window)
        _ = doupdate()
        previous = buffer
        lastFrame = stats
    }

    /// Writes the changed cells; false (having stopped early) when colour pairs ran out and were reset.
    private func blit(_ buffer: CellBuffer, into window: UnsafeMutablePointer<WINDOW>, stats: inout FrameStatistics, allowPairReset: Bool) -> Bool {
        let (width, height) = size
        for change in buffer.changes(since: previous) where change.x < width && change.y < height {
            var cell = change.cell
            if let block = palette.monochromeHalfBlock(cell.character, style: cell.style) {
                cell = Cell(block, style: .plain)
            }
            let style = palette.cursesStyle(for: cell.style)
            // Two RGB colours the terminal shows as the same palette entry are no change on screen: skipping
            // them keeps a noisy camera preview from rewriting cells the viewer cannot see change (SSH bytes).
            if let previous {
                let before = previous[change.x, change.y]
                let shownBefore = palette.monochromeHalfBlock(before.character, style: before.style).map { Cell($0) } ?? before
                if shownBefore.character == cell.character, !before.isContinuation, palette.cursesStyle(for: shownBefore.style) == style {
                    continue
                }
            }
            var pair = pairs.pair(foreground: style.foreground, background: style.background)
            if pair == nil {
                if allowPairReset {
                    pairs.reset()
                    return false
                }
                stats.cellsWithoutPair += 1
                pair = 0
            }
            var text = cell.character.unicodeScalars.prefix(5).map { wchar_t(bitPattern: $0.value) }
            text.append(0)
            let result = onair_mvadd_wchstr(window, Int32(change.y), Int32(change.x), text, Self.attributes(style.attributes), pair ?? 0)
            stats.cellsWritten += 1
            let isBottomRight = change.y == height - 1 && change.x + DisplayWidth.of(cell.character) >= width
            if result == ERR && !isBottomRight { stats.failedWrites += 1 }
        }
        return true
    }

    static func attributes(_ attributes: TextAttributes) -> attr_t {
        var result = onair_A_NORMAL()
        if attributes.contains(.bold) { result |= onair_A_BOLD() }
        if attributes.contains(.dim) { result |= onair_A_DIM() }
        if attributes.contains(.italic) { result |= onair_A_ITALIC() }
        if attributes.contains(.underline) { result |= onair_A_UNDERLINE() }
        if attributes.contains(.reverse) { result |= onair_A_REVERSE() }
        return result
    }

    /// Waits up to `timeoutMilliseconds` for a key, a resize or a stop signal. Nil means nothing happened
    /// (a timeout, or a key the console does not use): the loop can tick and redraw.
    public func nextEvent(timeoutMilliseconds: Int32) -> Event? {
        if TerminalSignals.stopRequested { return .stopRequested }
        guard let window, let screen else { return .stopRequested }
        _ = set_term(screen)
        wtimeout(window, timeoutMilliseconds)
        var character: wint_t = 0
        let result = wget_wch(window, &character)
        if TerminalSignals.stopRequested { return .stopRequested }
        switch result {
        case KEY_CODE_YES:
            switch Int32(character) {
            case KEY_RESIZE:
                invalidate()
                let (width, height) = size
                return .resize(width: width, height: height)
            case KEY_BTAB: return .key(.backTab)
            case KEY_ENTER: return .key(.enter)
            case KEY_PPAGE: return .key(.pageUp)
            case KEY_NPAGE: return .key(.pageDown)
            default: return nil
            }
        case OK where character == Self.controlL:
            // Ctrl-L: repaint everything on the next draw (after another program scribbled on the terminal).
            invalidate()
            return nil
        case OK:
            return Self.key(for: UInt32(character)).map(Event.key)
        default:
            return nil
        }
    }

    static let controlL: wint_t = 12

    /// A typed character as a console key; nil for control characters the console does not use.
    static func key(for value: UInt32) -> ConsoleKey? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 0..<32, 127: return nil
        default: return Unicode.Scalar(value).map { .character(Character($0)) }
        }
    }
}
