// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A pthread mutex with a condition variable on CLOCK_MONOTONIC (a change of the
/// wall clock neither cuts a wait short nor stretches it): what `OneShotSignal`
/// and the batch's progress gate wait on.
public final class Condition: @unchecked Sendable {
    // @unchecked: the mutex is the synchronisation; the storage never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held; `body` may `wait` (which lets go of it meanwhile).
    public func withLock<R>(_ body: (Waiting) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(Waiting(condition: condition, mutex: mutex))
    }

    /// Wakes every thread waiting now.
    public func broadcast() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// What a thread holding the mutex may do: wait to be woken, up to a time.
    public struct Waiting {
        fileprivate let condition: UnsafeMutablePointer<pthread_cond_t>
        fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

        /// Waits for a broadcast or `seconds`; false when the time ran out.
        @discardableResult
        public func wait(seconds: Double) -> Bool {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let total = Int64(deadline.tv_nsec) + Int64(max(seconds, 0) * 1e9)
            deadline.tv_sec += Int(total / 1_000_000_000)
            deadline.tv_nsec = Int(total % 1_000_000_000)
            return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
        }
    }
}
