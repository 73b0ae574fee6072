import Foundation

/// Reads headless commands from standard input, one per line, on a thread of its own (a blocking read
/// must not hold one of the cooperative pool's two threads). End of input just ends the reading: a
/// front end started with no stdin (CI, `ssh host onair … </dev/null`) keeps running until its duration.
public enum StdinCommandReader {
    public static func start(_ line: @escaping @Sendable (String) -> Void) {
        let thread = Thread {
            while let text = readLine(strippingNewline: true) {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                line(trimmed)
            }
        }
        thread.name = "onair-stdin"
        thread.start()
    }
}
