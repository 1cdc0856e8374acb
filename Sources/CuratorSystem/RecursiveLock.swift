// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A mutex the thread holding it may take again: for an object whose methods call
/// each other under one lock (a journal transaction's body records items, each a
/// locked method too). Held for a few SQLite statements at a time.
public final class RecursiveLock: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronisation; its storage never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let rc = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
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
