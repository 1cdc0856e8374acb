// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// `sets` events: a subscriber's user is told when their stacks or duplicate sets
/// formed, changed or went, so that a client showing them lists again. Each user
/// gets the event of what they may see only (sets are made of the photos they may
/// list), with the count of their sets of that kind.
extension CuratorState {
    func announceSetChanges(now: UInt64 = MonotonicClock.nanoseconds()) {
        if setWatch.generation != library.generation {
            setWatch.generation = library.generation
            setWatch.dirty = true
        }
        guard events.hasSubscribers, setWatch.dirty, now >= setWatch.nextAt else { return }
        setWatch.dirty = false
        defer { setWatch.worked(since: now, until: MonotonicClock.nanoseconds()) }
        let users = events.subscriberUIDs
        setWatch.digests = setWatch.digests.filter { users.contains($0.key) }
        for uid in users {
            let stacks = stacks(uid: uid)
            let duplicates = duplicateSets(uid: uid)
            let digest = (stacks: Self.digest(stacks.map { $0.members.map(\.groupID) }),
                          duplicates: Self.digest(duplicates.map { $0.copies.flatMap { $0.units.map(\.groupID) } }))
            let before = setWatch.digests[uid]
            setWatch.digests[uid] = digest
            // A user's first look is what they will list: nothing to tell.
            guard let before else { continue }
            if before.stacks != digest.stacks {
                events.send(Event(event: .sets, state: "stacks", count: stacks.count), toUID: uid)
            }
            if before.duplicates != digest.duplicates {
                events.send(Event(event: .sets, state: "duplicates", count: duplicates.count), toUID: uid)
            }
        }
    }

    /// Order-independent within a set (its members as listed), order-dependent across
    /// sets (which come sorted): a frame joining, leaving or a keeper changing changes it.
    private static func digest(_ sets: [[Int64]]) -> Int {
        var hasher = Hasher()
        hasher.combine(sets.count)
        for set in sets { hasher.combine(set) }
        return hasher.finalize()
    }
}
