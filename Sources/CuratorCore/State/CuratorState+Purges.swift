// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CuratorState {
    /// Photos that `trash.empty` or a root's `recycle_keep_days` took out of the trash
    /// (or found gone from it). Those we emptied lose their tombstones: their inodes
    /// are free, and the next file given one is another photo, with an id of its own.
    /// (One found missing keeps its tombstone until the next start: it may have been
    /// restored by another tool, and the watcher has yet to see it back.) The
    /// thumbnails kept for their undo go too.
    func photosPurged(_ items: [BatchItemResult]) {
        for item in items where item.outcome == .emptied { tombstones.forget(item.id) }
        thumbnailsPurged(items)
    }
}
