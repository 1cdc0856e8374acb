// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The capture reader's two locked steps: what to read next (the queue, checked
/// against the index and the roots), and the times read (into the index).
extension CuratorState {
    /// The next photos whose capture time is pending, with their absolute paths;
    /// photos read since they were queued, gone, or on an offline root are dropped.
    func takeCaptureWork(limit: Int) -> [(Int64, ByteString)] {
        capturePending.take(limit: limit) { id in
            guard let photo = library.photo(id), photo.capture == .pending, let root = roots[photo.rootID], root.online else { return nil }
            return root.config.path.appending(library.relativePath(of: photo))
        }
    }

    func applyCaptureTimes(_ results: [(Int64, CaptureState)]) {
        do {
            try library.batch {
                for (id, capture) in results where library.photo(id)?.capture == .pending {
                    try library.setCapture(id, capture)
                }
            }
        } catch {
            log.error("cannot record capture times: \(error)")
        }
        viewCache.invalidate()
    }
}
