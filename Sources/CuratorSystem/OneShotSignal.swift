// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc
import Synchronization

/// Something that happens once (a thread answered, a thread exited), waited for
/// with a deadline from any thread. The deadline runs on CLOCK_MONOTONIC, so a
/// change of the wall clock neither cuts a wait short nor stretches it.
public final class OneShotSignal: @unchecked Sendable {
    // @unchecked: the pthread mutex guards the condition; their storage never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let fired = Atomic<Bool>(false)

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

    public func signal() {
        pthread_mutex_lock(mutex)
        fired.store(true, ordering: .releasing)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    public var isSignalled: Bool { fired.load(ordering: .acquiring) }

    /// True once signalled; false when `seconds` pass first.
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let total = Int64(deadline.tv_nsec) + Int64(max(seconds, 0) * 1e9)
        deadline.tv_sec += Int(total / 1_000_000_000)
        deadline.tv_nsec = Int(total % 1_000_000_000)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !fired.load(ordering: .acquiring) {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return fired.load(ordering: .acquiring) }
        }
        return true
    }
}
