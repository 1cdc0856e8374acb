// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What the capture reader is to read next: the local roots' photos, read on its
/// own thread, and each share's, read on a thread of that share's own.
struct CaptureWork {
    var local: [(Int64, PhotoPath)] = []
    var shares: [Int32: [(Int64, PhotoPath)]] = [:]
    var isEmpty: Bool { local.isEmpty && shares.isEmpty }
}

/// One photo's capture time as the reader read it.
struct CaptureResult {
    var id: Int64
    var state: CaptureState
    var detail: CaptureDetail
}

/// The capture reader's two locked steps: what to read next (the queue, checked
/// against the index and the roots), and the times read (into the index).
extension CuratorState {
    /// The next photos whose capture time is pending, with their roots and paths;
    /// photos read since they were queued, gone, or on an offline root are dropped.
    ///
    /// A root's photos wait while a batch (or an undo, an emptying) holds it. Local
    /// roots' photos wait while a local root is walked (the walk has the disk to
    /// itself) or holds a batch (the batch has the cores); a share's wait while that
    /// share is walked, holds a batch, does not answer, or has a read in flight
    /// (`busyShares`): a share that hangs, or whose batch hangs, holds back its own
    /// photos, no one else's.
    /// A root the watcher has not yet found waits too: until then nobody knows
    /// whether it is a share.
    func takeCaptureWork(localLimit: Int, shareLimit: Int, busyShares: Set<Int32>) -> CaptureWork {
        var work = CaptureWork()
        // A share that has not answered for a while (still unfound at start-up too)
        // keeps its `scanning`: it must not stop the local roots' reads.
        let localWalk = roots.values.contains {
            !$0.onShare && (($0.scanning && $0.unresponsiveSince == nil) || plans.busyRoots.contains($0.config.name))
        }
        for rootID in capturePending.roots {
            guard let root = roots[rootID], root.online else {
                // Gone or offline: queued again if it comes back (`requeuePendingCaptures`).
                capturePending.drop(root: rootID)
                continue
            }
            guard root.watchingDecided else { continue }
            if root.onShare {
                guard !busyShares.contains(rootID) else { continue }
                let taken = takeShareCaptureWork(root: rootID, limit: shareLimit)
                if !taken.isEmpty { work.shares[rootID] = taken }
            } else if !localWalk && work.local.count < localLimit {
                work.local += takeCaptureWork(root: rootID, limit: localLimit - work.local.count)
            }
        }
        return work
    }

    /// The next photos of the share `root` to read, on its own thread, when it may
    /// be read now (see above).
    func takeShareCaptureWork(root rootID: Int32, limit: Int) -> [(Int64, PhotoPath)] {
        guard let root = roots[rootID], root.online, root.watchingDecided, root.onShare, !root.scanning,
              root.unresponsiveSince == nil, !plans.busyRoots.contains(root.config.name) else { return [] }
        return takeCaptureWork(root: rootID, limit: limit)
    }

    private func takeCaptureWork(root: Int32, limit: Int) -> [(Int64, PhotoPath)] {
        capturePending.take(from: root, limit: limit) { id in
            guard let photo = library.photo(id), photo.capture == .pending, let root = roots[photo.rootID], root.online else { return nil }
            return PhotoPath(root: root.config.path, relative: library.relativePath(of: photo))
        }
    }

    /// Work taken that could not be handed to its thread: queued again.
    func returnCaptureWork(_ work: [(Int64, PhotoPath)], root: Int32) {
        for (id, _) in work { capturePending.append(id, root: root) }
    }

    func applyCaptureTimes(_ results: [CaptureResult]) {
        let before = library.generation
        do {
            try library.batch {
                for result in results where library.photos.row(result.id)?.capture == .pending {  // the row: no name copied out
                    try library.setCapture(result.id, result.state, detail: result.detail)
                }
            }
        } catch {
            log.error("cannot record capture times: \(error)")
        }
        viewCache.captureTimesChanged(from: before, to: library.generation)
    }
}
