// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

/// What systemd does for a .socket unit, done by the test: it owns a listening
/// socket across several runs of the daemon and hands it over as fd 3 with
/// LISTEN_FDS=1 and LISTEN_PID (set by a shell to its own pid, then exec'd).
/// Foundation's Process cannot pass a descriptor, so this uses posix_spawn.
final class InheritedSocket {
    let path: String
    let listener: FileDescriptor

    init(path: String) throws {
        self.path = path
        listener = try UnixSocket.listen(at: ByteString(path), mode: 0o600)
    }

    deinit {
        try? listener.close()
        unlink(path)
    }

    /// Starts `daemon`'s curatord with the socket as fd 3; returns its pid.
    func spawn(_ daemon: Daemon) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let logFD = open(daemon.logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard logFD >= 0 else { throw HarnessError("open \(daemon.logPath): \(String(cString: strerror(errno)))") }
        defer { close(logFD) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, logFD, 1)
        posix_spawn_file_actions_adddup2(&actions, logFD, 2)
        // dup2 onto 3 clears close-on-exec, so only this descriptor is passed on.
        posix_spawn_file_actions_adddup2(&actions, listener.rawValue, 3)
        let script = #"LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" "$@""#
        let argv = ["/bin/sh", "-c", script, Daemon.curatord] + daemon.arguments
        let env = daemon.environment.map { "\($0.key)=\($0.value)" }
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, nil, &cArgs, &cEnv)
        guard rc == 0 else { throw HarnessError("posix_spawn: \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Waits for `pid` up to `timeout`; its exit status, or nil if it did not exit normally in time.
    static func wait(_ pid: pid_t, timeout: Double) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var status: Int32 = 0
        while Date() < deadline {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
                return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
            }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        return nil
    }
}
