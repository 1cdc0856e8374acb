// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Which sidecars are being written now, so that two writers of one sidecar take
/// turns (they would share its temporary name, and the second rename would lose
/// the first one's change) while writers of different sidecars never wait for each
/// other: a write held by a hung share keeps only that sidecar's writers waiting.
public final class SidecarLocks: Sendable {
    private let held = Monitor(Set<ByteString>())

    public init() {}

    /// Runs `body` holding every one of `paths` (a group's sidecars, taken all at
    /// once so that two groups sharing some never wait on each other in a circle).
    public func withLocks<R, E: Error>(_ paths: [ByteString], _ body: () throws(E) -> R) throws(E) -> R {
        let wanted = Set(paths)
        held.withLock { locked in
            locked.wait { $0.isDisjoint(with: wanted) }
            locked.state.formUnion(wanted)
        }
        defer {
            held.withLock { locked in
                locked.state.subtract(wanted)
                locked.broadcast()
            }
        }
        return try body()
    }
}
