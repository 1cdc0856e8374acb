// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// State behind a pthread mutex, with a condition variable (on CLOCK_MONOTONIC) to
/// wait for it to change: the one place where curatord's threads hand each other
/// anything. `WorkerPool`, `JobHandle`, `BlockingQueue` and `OneShotSignal` are
/// built on it, and everything else hands work and results over through those, so
/// this file holds the only unchecked reasoning about sharing between threads
/// (`StateLock` is a plain lock for `Curator`'s state, which nobody waits on).
public final class Monitor<State: Sendable>: @unchecked Sendable {
    // @unchecked: `storage` is read and written only by a thread holding `mutex`:
    // `withLock` takes it before it hands out a `Locked` and lets go of it after,
    // and `Locked` cannot be copied out of that call. A `wait` lets go of the mutex
    // inside pthread_cond_(timed)wait and holds it again before it returns, and no
    // access to the state spans it (each `locked.state` is an access of its own).
    // The pthread objects and the storage are allocated once and never move (a
    // pthread mutex must not be copied). `State` is Sendable, so what a thread takes
    // out of the state may go on living outside the lock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let storage: UnsafeMutablePointer<State>

    public init(_ state: State) {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        storage = .allocate(capacity: 1)
        storage.initialize(to: state)
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
        storage.deinitialize(count: 1)
        storage.deallocate()
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held. `body` may wait (which lets go of the mutex
    /// meanwhile) and wake other waiters through what it is given.
    public func withLock<R, E: Error>(_ body: (borrowing Locked) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(Locked(self))
    }

    /// The state, as a thread holding the mutex sees it; given by `withLock` only.
    public struct Locked: ~Copyable {
        private unowned(unsafe) let monitor: Monitor

        fileprivate init(_ monitor: Monitor) { self.monitor = monitor }

        /// Read and changed in place (a queue in the state is not copied to append).
        public var state: State {
            unsafeAddress { UnsafePointer(monitor.storage) }
            nonmutating unsafeMutableAddress { monitor.storage }
        }

        /// Lets go of the mutex until woken or until `deadline`, then holds it again.
        /// False when the deadline passed. A wake-up may be spurious: look again.
        @discardableResult
        public func wait(until deadline: Deadline = .never) -> Bool {
            if deadline == .never { return pthread_cond_wait(monitor.condition, monitor.mutex) == 0 }
            var at = deadline.timespec
            return pthread_cond_timedwait(monitor.condition, monitor.mutex, &at) != ETIMEDOUT
        }

        /// Waits until `ready` holds for the state, or `deadline` passes; true when it holds.
        @discardableResult
        public func wait(until deadline: Deadline = .never, for ready: (State) -> Bool) -> Bool {
            while !ready(state) {
                guard wait(until: deadline) else { return ready(state) }
            }
            return true
        }

        /// Wakes every thread waiting on this monitor (each looks again at the state).
        public func broadcast() { pthread_cond_broadcast(monitor.condition) }
    }
}
