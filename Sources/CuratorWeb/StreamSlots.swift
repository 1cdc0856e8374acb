// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// How many event streams may be open at once. Each holds a daemon connection (out of
/// the user's `max_clients_per_user`) and a thread of the server for as long as it
/// lasts; a page needs one, a few tabs a few.
final class StreamSlots: Sendable {
    let capacity: Int
    private let used = Mutex(0)

    init(capacity: Int) { self.capacity = capacity }

    func take() -> Bool {
        used.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
    }

    func giveBack() { used.withLock { $0 -= 1 } }
}
