import CNcurses
import OnAirConsole
@testable import OnAirTerminal

#if canImport(Glibc)
import Glibc
#endif

/// Test-only: reads ncurses' idea of the screen back, to check the blit independently of the buffer.
extension TerminalScreen {
    /// What ncurses believes the terminal shows now (its `curscr`), row by row, trailing spaces trimmed.
    ///
    /// Lets a test on a pty check that a blit put the buffer's characters on screen, independently of the
    /// `CellBuffer` it came from.
    func readBack() -> [String] {
        let (width, height) = size
        return (0..<height).map { row in
            var line = ""
            var column = 0
            while column < width {
                var ch: wchar_t = 0
                var attributes: attr_t = 0
                var pair: Int32 = 0
                if onair_mvwin_wch(onair_curscr(), Int32(row), Int32(column), &ch, &attributes, &pair) == ERR { break }
                let scalar = Unicode.Scalar(UInt32(bitPattern: ch)) ?? " "
                line.unicodeScalars.append(scalar)
                column += max(1, DisplayWidth.of(scalar))
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The colour pair ncurses holds for the cell at (x, y) of `curscr`: tests check that colours were set.
    func readBackPair(x: Int, y: Int) -> Int32? {
        var ch: wchar_t = 0
        var attributes: attr_t = 0
        var pair: Int32 = 0
        guard onair_mvwin_wch(onair_curscr(), Int32(y), Int32(x), &ch, &attributes, &pair) != ERR else { return nil }
        return pair
    }
}
