// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Read-your-writes: a sync cookie is answered only once all the work that came
/// before it is applied. Work here is what the event stream alone does not
/// finish at once: scans (a new folder is read after its CREATE event; an
/// overflow is repaired by a rescan) and moves whose other half is awaited.
extension Watcher {
    /// A cookie file was seen (by its event, or listed by a full scan that has
    /// just finished): answer it now, or once the earlier work is done.
    func cookieArrived(_ name: ByteString) {
        let at = nextSequence()
        if let floor = oldestOutstandingWork(), floor < at {
            deferredCookies.append((name, at))
        } else {
            inbox.cookieSeen(name)
        }
    }

    /// Answers the deferred cookies that no earlier work holds back any more.
    func releaseDeferredCookies() {
        guard !deferredCookies.isEmpty else { return }
        let floor = oldestOutstandingWork() ?? .max
        var waiting: [(name: ByteString, sequence: UInt64)] = []
        for cookie in deferredCookies {
            if cookie.sequence < floor { inbox.cookieSeen(cookie.name) } else { waiting.append(cookie) }
        }
        deferredCookies = waiting
    }

    /// The sequence number of the oldest scan or unpaired move still to be applied.
    func oldestOutstandingWork() -> UInt64? {
        var oldest: UInt64?
        for job in scans { oldest = min(oldest ?? .max, job.sequence) }
        for move in pendingMoves.values { oldest = min(oldest ?? .max, move.sequence) }
        return oldest
    }
}
