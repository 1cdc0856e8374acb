// SPDX-License-Identifier: GPL-2.0-or-later

extension CuratorState {
    /// A root is back online: its photos still waiting for a capture time go back
    /// in the reader's queue (the reader drops the ids of offline roots, and an
    /// unchanged photo is not queued again by the scan that reconciles the root).
    /// Costs the size of the root, once per return.
    func requeuePendingCaptures(root: Int32) {
        guard (library.pendingCaptureByRoot[root] ?? 0) > 0 else { return }
        for folder in library.folderIDs(inRoot: root) {
            for id in library.photoIDs(inFolder: folder) where library.photo(id)?.capture == .pending {
                capturePending.append(id)
            }
        }
    }
}
