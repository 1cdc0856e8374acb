// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// A mutex for state held for microseconds by a handful of threads. The standard
/// library's `Mutex` uses priority-inheritance futexes on Linux, which enter the
/// kernel on every contended acquisition; a profile of a cold scan showed 15% of
/// the time there. This one is glibc's adaptive mutex, which spins briefly first;
/// or, `recursive`, one the thread holding it may take again, for an object whose
/// locked methods call each other (the journal: a transaction's body records items).
public final class StateLock: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronisation; its storage never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        let rc: Int32
        if recursive {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            rc = pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        } else {
            rc = curator_mutex_init_adaptive(mutex)
        }
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
