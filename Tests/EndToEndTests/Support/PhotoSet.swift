// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// Photos written for a delete test, each with random content, and their SHA-256
/// taken before anything happened: the ground truth that "nothing was lost" is
/// checked against.
struct PhotoSet {
    let root: String
    /// Paths relative to the root, in the order they were made.
    let relativePaths: [String]
    /// Relative path → SHA-256 of the content written.
    let digests: [String: String]
    /// Relative path → inode when written.
    let inodes: [String: UInt64]

    /// `count` photos spread over `folders` (below the root), named with `prefix`
    /// and a zero-padded number, 1-12 KiB of random bytes each.
    static func make(in root: String, count: Int, folders: [String] = ["2024/05"], prefix: String = "IMG_") throws -> PhotoSet {
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw HarnessError("no /dev/urandom") }
        defer { try? random.close() }
        var paths: [String] = []
        for folder in folders {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for i in 0..<count {
            let folder = folders[i % folders.count]
            let relative = folder + "/" + prefix + String(format: "%04d", i + 1) + ".JPG"
            let bytes = random.readData(ofLength: Int.random(in: 1024...12_288))
            try bytes.write(to: URL(fileURLWithPath: root + "/" + relative))
            paths.append(relative)
        }
        return try PhotoSet(root: root, relativePaths: paths)
    }

    /// Takes the current content of existing files as the truth.
    init(root: String, relativePaths: [String]) throws {
        self.root = root
        self.relativePaths = relativePaths
        let absolute = relativePaths.map { root + "/" + $0 }
        let sums = try Checksum.sha256(absolute)
        var digests: [String: String] = [:]
        var inodes: [String: UInt64] = [:]
        for (relative, path) in zip(relativePaths, absolute) {
            guard let sum = sums[path], let inode = Files.inode(path) else { throw HarnessError("cannot read \(path)") }
            digests[relative] = sum
            inodes[relative] = inode
        }
        self.digests = digests
        self.inodes = inodes
    }

    func absolute(_ relative: String) -> String { root + "/" + relative }

    /// Where each photo stands now, and everything that breaks the promises of the
    /// design ("What must never happen", issue 4 point 5).
    struct Census {
        var atPath: Set<String> = []
        /// Relative path → name in the trash's `files/`.
        var inTrash: [String: String] = [:]
        var problems: [String] = []
    }

    /// Checks `photos` (all by default) against the disk and the trash at `trash`:
    /// every photo is at its original path with its content, or in `files/` with
    /// its content and a `.trashinfo` whose decoded Path is its original absolute
    /// path, never both, never neither; no `.trashinfo` without its file and no
    /// file without its `.trashinfo`; nothing in the trash that is not one of ours.
    func census(trash: String, only photos: [String]? = nil) throws -> Census {
        let snapshot = TrashSnapshot(trash)
        var census = Census()
        census.problems += snapshot.orphans
        let wanted = photos ?? relativePaths
        var ours = Set<String>()
        var trashPaths: [String] = []
        for relative in wanted {
            let entries = snapshot.entries(for: absolute(relative))
            if entries.count > 1 { census.problems.append("\(relative): \(entries.count) .trashinfo files name it") }
            if let entry = entries.first, snapshot.files.contains(entry.name) {
                census.inTrash[relative] = entry.name
                trashPaths.append(snapshot.filePath(entry.name))
            }
            ours.insert(absolute(relative))
        }
        let sums = try Checksum.sha256(wanted.map(absolute) + trashPaths)
        for relative in wanted {
            let here = sums[absolute(relative)]
            let there = census.inTrash[relative].flatMap { sums[snapshot.filePath($0)] }
            if here != nil { census.atPath.insert(relative) }
            switch (here, there) {
            case (nil, nil): census.problems.append("\(relative): LOST, neither at its path nor in the trash")
            case (.some, .some): census.problems.append("\(relative): both at its path and in the trash")
            case (.some(let sum), nil) where sum != digests[relative]:
                census.problems.append("\(relative): the file at its path has other content")
            case (nil, .some(let sum)) where sum != digests[relative]:
                census.problems.append("\(relative): the file in the trash has other content")
            default: break
            }
        }
        if photos == nil {
            for entry in snapshot.entries where !ours.contains(entry.path) {
                census.problems.append("the trash holds \(entry.name) from \(entry.path), which is not one of the photos")
            }
        }
        return census
    }

    /// Every photo back at its original path with its original content.
    func allBack(_ which: [String]? = nil) throws -> [String] {
        let wanted = which ?? relativePaths
        let sums = try Checksum.sha256(wanted.map(absolute))
        return wanted.compactMap { relative in
            sums[absolute(relative)] == digests[relative] ? nil : "\(relative) is not back with its content"
        }
    }
}
