// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A root's protected folders (article 003's non-removable sections), compiled
/// once: plain entries protect a folder and everything below it; entries with glob
/// characters match a folder path or a photo's relative path.
struct ProtectionRules {
    private var folders: [ByteString] = []
    private var globs: [Glob] = []

    init(_ entries: [String]) {
        for entry in entries {
            let trimmed = ByteString(entry).normalizedRelative
            if entry.contains(where: { "*?[".contains($0) }) {
                globs.append(Glob(pattern: trimmed.lossyString, options: [.pathname]))
            } else {
                folders.append(trimmed)
            }
        }
    }

    var isEmpty: Bool { folders.isEmpty && globs.isEmpty }

    func covers(folder: ByteString, name: ByteString) -> Bool {
        if folders.contains(where: { folder.isWithin($0) }) { return true }
        guard !globs.isEmpty else { return false }
        let path = folder.appending(name)
        // A glob on a folder covers what lies below it, as a plain entry does.
        var ancestors: [ByteString] = [folder]
        var cursor = folder
        while !cursor.isEmpty {
            cursor = cursor.parent
            ancestors.append(cursor)
        }
        return globs.contains { glob in glob.matches(path) || ancestors.contains { !$0.isEmpty && glob.matches($0) } }
    }
}
