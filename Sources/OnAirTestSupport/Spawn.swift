import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a short command with `posix_spawn` and `waitpid`, for commands that leave a daemon behind.
///
/// Foundation's `Process` on Linux learns that a child exited through a descriptor the child inherits;
/// a daemon the child forks (tmux's server) inherits it too, so `Process` would wait for the daemon.
/// `waitpid` on the child's own pid does not.
enum Spawn {
    static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(10)) throws -> Int32 {
        let path = try PeerProcess.locate(executable).path
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw PeerError.system("posix_spawn \(executable)", spawned) }
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { throw PeerError.system("waitpid", errno) }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw PeerError.timedOut("\(executable) \(arguments.joined(separator: " ")) did not finish")
            }
            usleep(5_000)
        }
        // WIFEXITED/WEXITSTATUS are macros: the low 7 bits are the signal, the next 8 the exit code.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
