/// How a front end ends: a clean stop, or a one-line reason and a process exit code.
///
/// Front ends never call `exit` themselves; the executable maps this to the process status
/// so that the terminal and recordings are always restored on the way out.
public struct FrontEndExit: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int32
    public var message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
