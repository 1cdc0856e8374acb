// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Delete plans shown and not yet confirmed, by token, and whether a batch (a
/// confirmed plan being carried out, or an undo) is running: one at a time, since
/// each moves photos the other may be about to move.
///
/// Each plan pins its photos' paths until it is confirmed or expires, so one user's
/// waiting plans are bounded (`maxPerUser`), the oldest making room for a new one.
struct DeletePlans {
    /// Delete plans one user may have waiting for confirmation.
    static let maxPerUser = 8

    private var byToken: [String: DeletePlan] = [:]
    /// Set while a batch or an undo runs; cleared when it ends, however it ends.
    var batchRunning = false

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

    /// Forgets the plans of `key`'s session (only `token`, when given); returns how many.
    mutating func cancel(session key: SessionKey, token: String? = nil) -> Int {
        let doomed = byToken.values.filter { $0.key == key && (token == nil || $0.token == token) }.map(\.token)
        for token in doomed { byToken[token] = nil }
        return doomed.count
    }

    /// Takes the plan out: it is being confirmed, or has been found void.
    @discardableResult
    mutating func remove(_ token: String) -> DeletePlan? { byToken.removeValue(forKey: token) }

    /// Drops the plans whose time ran out before `now` (monotonic nanoseconds).
    mutating func dropExpired(now: UInt64) {
        for (token, plan) in byToken where plan.expiresAt < now { byToken[token] = nil }
    }
}
