// SPDX-License-Identifier: GPL-2.0-or-later
#if DEBUG
import Glibc
import Synchronization

/// Which thread is in a connection now. Connections are opened NOMUTEX: SQLite
/// does not lock them, so a connection's owner (the index behind the state lock,
/// the journal on the batch's thread, the checkpointer on its own) must never let
/// two threads in at once. Debug builds check that at every call into SQLite;
/// release builds carry nothing of it. The owner may change between calls (the
/// index is used by whichever thread holds the state lock), never during one.
final class ConnectionUser: @unchecked Sendable {
    // @unchecked: `holder` is atomic; `depth` is read and written only by the
    // thread `holder` names, after it took the connection and before it lets go.
    private let holder = Atomic<UInt>(0)
    private var depth = 0
    /// What a second thread's entry does: trap, unless a test asks otherwise.
    /// Set before the connection is shared.
    var onViolation: @Sendable (String) -> Void = { preconditionFailure($0) }

    /// Takes the connection for this thread (again, when it has it already). False,
    /// after reporting it, when another thread is in it: the caller then goes on
    /// without taking it (only a test's `onViolation` returns).
    func enter(_ what: @autoclosure () -> String, path: String) -> Bool {
        let me = UInt(pthread_self())
        let (taken, other) = holder.compareExchange(expected: 0, desired: me, ordering: .acquiring)
        guard taken || other == me else {
            onViolation("\(path): \(what()) on thread \(String(me, radix: 16)) while thread \(String(other, radix: 16)) is in "
                        + "the connection (one thread at a time: it is opened without SQLite's mutex)")
            return false
        }
        depth += 1
        return true
    }

    func leave() {
        depth -= 1
        if depth == 0 { holder.store(0, ordering: .releasing) }
    }
}
#endif
