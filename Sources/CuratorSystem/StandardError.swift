// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc
import Synchronization

/// The daemon's stderr is its log, written by `Logger` alone (on a copy of fd 2).
/// A C library that prints there unasked (libinotifytools' "Failed to remove watch
/// on /proc/self/fd/15: Unknown error -1", untimestamped, with no level) is called
/// through `silenced`; the caller logs what went wrong itself, at its level.
public enum StandardError {
    private static let lock = Mutex<Void>(())

    /// Runs `body` with fd 2 pointing at /dev/null, then puts it back. The logger's
    /// lines are unaffected; so is anything another thread writes to fd 2 through
    /// the logger. When /dev/null cannot be opened, `body` runs as it is.
    public static func silenced<R>(_ body: () -> R) -> R {
        lock.withLock { _ in
            let null = "/dev/null".withCString { SystemCalls.openat(AT_FDCWD, $0, O_WRONLY | O_CLOEXEC, 0) }
            guard null >= 0 else { return body() }
            let saved = SystemCalls.fcntl(2, F_DUPFD_CLOEXEC, 3)
            guard saved >= 0, SystemCalls.dup2(null, 2) >= 0 else {
                if saved >= 0 { _ = SystemCalls.close(saved) }
                _ = SystemCalls.close(null)
                return body()
            }
            let result = body()
            _ = SystemCalls.dup2(saved, 2)
            _ = SystemCalls.close(saved)
            _ = SystemCalls.close(null)
            return result
        }
    }
}
