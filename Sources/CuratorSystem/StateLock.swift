// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// A mutex for state held for microseconds by a handful of threads. The standard
/// library's `Mutex` uses priority-inheritance futexes on Linux, which enter the
/// kernel on every contended acquisition; a profile of a cold scan showed 15% of
/// the time there. This one is glibc's adaptive mutex, which spins briefly first.
public final class StateLock: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronisation; its storage never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        let rc = curator_mutex_init_adaptive(mutex)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
