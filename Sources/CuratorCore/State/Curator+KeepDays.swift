// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

extension Curator {
    /// Applies the roots' `recycle_keep_days`: what was trashed from such a root
    /// longer ago than that is emptied, for every user, journaled like `trash.empty`.
    /// A root a batch holds now is left for the next round; blocking: call it off
    /// the main thread. Returns how many photos were emptied.
    @discardableResult
    public func emptyExpiredTrash(now: Int64 = Int64(time(nil))) -> Int {
        var cutoffs: [String: Int64] = [:]
        for root in configuration.roots {
            if let days = root.recycleKeepDays { cutoffs[root.name] = now - Int64(days) * 86_400 }
        }
        guard !cutoffs.isEmpty else { return 0 }
        // Each root on its own: one that a batch holds is left to the next round (an hour later).
        let free = withState { (state) -> Set<String> in
            if isStopping { return [] }
            let free = Set(cutoffs.keys).subtracting(state.plans.busyRoots)
            _ = state.plans.claim(free)
            return free
        }
        cutoffs = cutoffs.filter { free.contains($0.key) }
        guard !cutoffs.isEmpty else { return 0 }
        defer { withState { $0.plans.release(free) } }
        do {
            let result = try batches.withRunner { (runner) throws(BatchError) in try runner.emptyExpired(cutoffs: cutoffs) }
            withState { $0.photosPurged(result.items) }
            if !result.items.isEmpty {
                log.notice("recycle_keep_days: emptied \(result.emptied) photos (\(result.bytes) bytes) trashed before the cutoff"
                           + (result.skipped > 0 ? "; \(result.skipped) could not be" : ""))
            }
            return result.emptied
        } catch {
            log.error("recycle_keep_days: \(error)")
            return 0
        }
    }
}
