// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// libinotifytools never forgets the entry of a watch the kernel dropped
/// (IN_IGNORED), so mkdir/rmdir churn would grow its memory without bound. Past
/// `staleEntryLimit` such entries the library is closed and opened afresh; every
/// directory is watched again by a rescan of the inotify roots.
extension Watcher {
    func compact() {
        guard let tools else { return }
        // Whatever is queued on the old descriptor (and in the library's buffer)
        // is applied first: reading until nil also empties that buffer, which
        // would otherwise leak old events into the new instance.
        // Bounded, in case the folders never go quiet: what is left is covered by
        // the rescan, but the buffer must be empty before the library closes.
        for round in 0..<1000 {
            let events = readAvailableEvents()
            if events.isEmpty { break }
            if round < 8 { process(events) }
        }
        settlePendingMoves(olderThan: .max)
        let stale = tools.staleEntries
        let roots = curator.withState { state in
            state.rootOrder.filter { (state.roots[$0]?.usesInotify ?? false) && (state.roots[$0]?.online ?? false) }
        }
        // The library frees every entry itself; ours go with them.
        table.removeAll()
        do {
            try tools.reinitialize()
            log.info("restarted inotify to shed \(stale) stale watch entries; rescanning \(roots.count) root(s)")
            for id in roots { scheduleFullScan(root: id, reason: "inotify restarted to shed stale watch entries") }
        } catch {
            // The library is not initialised now: it must not be called again.
            self.tools = nil
            log.error("cannot restart inotify (\(error)); every root is polled from now on")
            let ids = curator.withState { state -> [Int32] in
                for id in state.rootOrder {
                    state.roots[id]?.usesInotify = false
                    state.roots[id]?.polls = true
                    state.roots[id]?.watches = 0
                    state.roots[id]?.note = "inotify could not be restarted (\(error)); polling"
                }
                return state.rootOrder
            }
            let now = MonotonicClock.nanoseconds()
            for id in ids {
                let interval = curator.withState { $0.roots[id]?.config.pollInterval } ?? 300
                nextPoll[id] = now + UInt64(interval * 1e9)
                scheduleFullScan(root: id, reason: "inotify lost")
            }
        }
        publishWatcherReport()
    }
}
