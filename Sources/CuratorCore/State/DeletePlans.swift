// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Delete plans shown and not yet confirmed, by token, and the roots a batch (a
/// confirmed plan being carried out, an undo, an emptying of the trash) holds: one
/// batch a root at a time, since each moves photos the other may be about to move;
/// batches on different roots run at once, so that one hanging on an unresponsive
/// share holds no one else's.
///
/// Each plan pins its photos' paths until it is confirmed or expires, so one user's
/// waiting plans are bounded (`maxPerUser`), the oldest making room for a new one.
struct DeletePlans {
    /// Delete plans one user may have waiting for confirmation.
    static let maxPerUser = 8

    private var byToken: [String: DeletePlan] = [:]
    /// The roots (by name) a batch, undo or emptying holds: each taken when it
    /// starts, given back when it ends, however it ends (`claim`, `release`).
    private(set) var busyRoots: Set<String> = []

    /// True while some batch, undo or emptying runs.
    var batchRunning: Bool { !busyRoots.isEmpty }

    /// Takes every root of `roots` for a batch, or none: returns the first of them
    /// (by name) that another batch holds, and then takes nothing.
    mutating func claim(_ roots: Set<String>) -> String? {
        if let busy = roots.intersection(busyRoots).min() { return busy }
        busyRoots.formUnion(roots)
        return nil
    }

    mutating func release(_ roots: Set<String>) { busyRoots.subtract(roots) }

    var count: Int { byToken.count }

    subscript(token: String) -> DeletePlan? { byToken[token] }

    /// The sessions some plan was made from: they are not idle (`SessionStore.makeRoom`).
    var sessionsWaiting: Set<SessionKey> { Set(byToken.values.map(\.key)) }

    /// Keeps `plan`, first dropping its user's oldest plans beyond `maxPerUser - 1`.
    mutating func add(_ plan: DeletePlan) {
        let waiting = byToken.values.filter { $0.key.uid == plan.key.uid }.sorted { $0.expiresAt < $1.expiresAt }
        for old in waiting.prefix(max(0, waiting.count - (Self.maxPerUser - 1))) { byToken[old.token] = nil }
        byToken[plan.token] = plan
    }

    /// Forgets the plans of `key`'s session; returns how many.
    mutating func cancel(session key: SessionKey) -> Int {
        let doomed = byToken.values.filter { $0.key == key }.map(\.token)
        for token in doomed { byToken[token] = nil }
        return doomed.count
    }

    /// Forgets the plan `token` names, whatever its session, when `uid` made it: a
    /// token names its plan alone. False when `uid` has no such plan (another user's
    /// token is left alone, and is as unknown to the caller as one never given out).
    mutating func cancel(token: String, uid: UInt32) -> Bool {
        guard let plan = byToken[token], plan.key.uid == uid else { return false }
        byToken[token] = nil
        return true
    }

    /// Takes the plan out: it is being confirmed, or has been found void.
    @discardableResult
    mutating func remove(_ token: String) -> DeletePlan? { byToken.removeValue(forKey: token) }

    /// Drops the plans whose time ran out before `now` (monotonic nanoseconds).
    mutating func dropExpired(now: UInt64) {
        for (token, plan) in byToken where plan.expiresAt < now { byToken[token] = nil }
    }
}
