#if canImport(Glibc)
import Glibc
#endif

/// Why a test peer could not be started or did not behave.
public enum PeerError: Error, CustomStringConvertible {
    case system(String, Int32)
    case notInstalled(String)
    case timedOut(String)
    case failed(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .notInstalled(let tool): "\(tool) is not installed; run `make test`, which installs the test peers"
        case .timedOut(let what): what
        case .failed(let what): what
        }
    }
}
