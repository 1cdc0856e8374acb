// SPDX-License-Identifier: GPL-2.0-or-later

/// How the folders a scan step read are applied to the index: in holds of the state
/// lock (and SQLite transactions) of about `limit` photos each, so that requests
/// wait a few milliseconds at most behind the scan, and the scan pays for a lock
/// and a commit per few hundred photos, not per folder (issue 14).
enum ScanHolds {
    /// Groups `folders`, in their order, into holds of at most `limit` photos (by
    /// `weight`: a sidecar counts a quarter, a folder at least one). With `splitting`
    /// (a full scan, which removes nothing before its end) a folder larger than
    /// `limit` is applied in parts, each marked incomplete; without, a large
    /// folder is one hold of its own.
    static func group(_ folders: [ScannedFolder], limit: Int, splitting: Bool) -> [[ScannedFolder]] {
        let limit = max(limit, 1)
        var holds: [[ScannedFolder]] = []
        var current: [ScannedFolder] = []
        var weight = 0
        func close() {
            if !current.isEmpty { holds.append(current) }
            current = []
            weight = 0
        }
        func add(_ folder: ScannedFolder, weighing: Int) {
            current.append(folder)
            weight += weighing
            if weight >= limit { close() }
        }
        for folder in folders {
            let weighing = Self.weight(of: folder.files)
            if weight + weighing <= limit {
                add(folder, weighing: weighing)
                continue
            }
            close()
            if weighing <= limit || !splitting {
                add(folder, weighing: weighing)
                continue
            }
            var start = folder.files.startIndex
            while start < folder.files.endIndex {
                let end = min(start + limit, folder.files.endIndex)
                add(ScannedFolder(path: folder.path, files: folder.files[start..<end], complete: false), weighing: end - start)
                start = end
            }
        }
        close()
        return holds
    }

    /// What `files` weigh in a hold: a photo 1, a sidecar a quarter (rounded up:
    /// its row goes into a record of 64, no SQLite row of its own, and it has no
    /// capture time to queue); at least 1, as a folder's own step costs something.
    /// Counted as photos, a tree of RAW+JPEG pairs and `.xmp`s (a tenth of its
    /// files) took a tenth more holds, each its own commit, for the same work.
    static func weight(of files: ArraySlice<ScannedFile>) -> Int {
        var sidecars = 0
        for file in files where file.type.isSidecar { sidecars += 1 }
        return max(files.count - sidecars + (sidecars + 3) / 4, 1)
    }
}
