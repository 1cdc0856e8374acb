// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// `sets` events: a subscriber's user is told when their stacks or duplicate sets
/// formed, changed or went, so that a client showing them lists again. Each user
/// gets the event of what they may see only (sets are made of the photos they may
/// list), with the count of their sets of that kind. The sets are found outside
/// the lock (`SetLook`), on the state's values taken in one locked step; what was
/// found is told, and kept for listings, in another.
extension CuratorState {
    /// The look the set watch is due for, if any (and the watch then clean).
    func setLookDue(now: UInt64 = MonotonicClock.nanoseconds()) -> SetLook? {
        if setWatch.generation != library.generation {
            setWatch.generation = library.generation
            setWatch.dirty = true
        }
        guard events.hasSubscribers, setWatch.dirty, now >= setWatch.nextAt else { return nil }
        setWatch.dirty = false
        let users = events.subscriberUIDs
        setWatch.digests = setWatch.digests.filter { users.contains($0.key) }
        let (stackBasis, duplicateBasis) = (stackBasis, duplicateBasis)
        // A kind whose sets a listing found since they last changed is not searched again.
        let lookers = users.sorted().map { uid in
            SetLook.User(uid: uid, listable: listableFolders(uid: uid), stacks: stackLooks.found.sets(uid: uid, basis: stackBasis),
                         duplicates: contentHashes.found.sets(uid: uid, basis: duplicateBasis))
        }
        return SetLook(startedAt: now, inputs: setInputs, stackBasis: stackBasis, duplicateBasis: duplicateBasis, users: lookers)
    }

    /// What `look` found: kept for listings while its basis holds, and told to each
    /// user whose sets changed since the look before.
    func finishSetLook(_ look: SetLook, found: [SetLook.Found], endedAt: UInt64 = MonotonicClock.nanoseconds()) {
        setWatch.worked(since: look.startedAt, until: endedAt)
        let stacksHold = look.stackBasis == stackBasis
        let duplicatesHold = look.duplicateBasis == duplicateBasis
        for each in found {
            if stacksHold { stackLooks.found.keep(each.stacks, uid: each.uid) }
            if duplicatesHold { contentHashes.found.keep(each.duplicates, uid: each.uid) }
            let digest = (stacks: Self.digest(each.stacks.stacks.map { $0.members.map(\.groupID) }),
                          duplicates: Self.digest(each.duplicates.sets.map { $0.copies.flatMap { $0.units.map(\.groupID) } }))
            let before = setWatch.digests[each.uid]
            setWatch.digests[each.uid] = digest
            // A user's first look is what they will list: nothing to tell.
            guard let before else { continue }
            if before.stacks != digest.stacks {
                events.send(Event(event: .sets, state: "stacks", count: each.stacks.stacks.count), toUID: each.uid)
            }
            if before.duplicates != digest.duplicates {
                events.send(Event(event: .sets, state: "duplicates", count: each.duplicates.sets.count), toUID: each.uid)
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

/// One look of the set watch: the state's values at its start, and the subscribing
/// users. `find` runs outside the lock.
struct SetLook {
    struct Found {
        var uid: UInt32
        var stacks: FoundStacks
        var duplicates: FoundDuplicates
    }

    /// A subscribing user: the folders they may list, and their sets of each kind
    /// when already found from this look's basis.
    struct User {
        var uid: UInt32
        var listable: Set<Int32>?
        var stacks: FoundStacks?
        var duplicates: FoundDuplicates?
    }

    var startedAt: UInt64
    var inputs: SetInputs
    var stackBasis: FoundStacks.Basis
    var duplicateBasis: FoundDuplicates.Basis
    var users: [User]

    func find() -> [Found] {
        users.map { user in
            Found(uid: user.uid,
                  stacks: user.stacks ?? FoundStacks(basis: stackBasis, stacks: inputs.stacks(listable: user.listable)),
                  duplicates: user.duplicates ?? FoundDuplicates(basis: duplicateBasis, sets: inputs.duplicateSets(listable: user.listable)))
        }
    }
}
