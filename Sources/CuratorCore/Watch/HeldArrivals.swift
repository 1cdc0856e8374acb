// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What a photo's file looks like without its inode: what a rename keeps.
struct FileFingerprint: Hashable, Sendable {
    var size: Int64
    var mtimeNs: Int64
    var type: PhotoType

    init(size: Int64, mtimeNs: Int64, type: PhotoType) {
        self.size = size
        self.mtimeNs = mtimeNs
        self.type = type
    }

    init(_ file: ScannedFile) {
        self.init(size: file.status.size, mtimeNs: file.status.mtimeNanoseconds, type: file.type)
    }

    init(_ photo: Photo) {
        self.init(size: photo.identity.size, mtimeNs: photo.identity.mtimeNs, type: photo.type)
    }
}

/// Files that a full scan of a share found at paths the index did not know and that
/// look like a photo it knows (same size, mtime and type): one of them may be that
/// photo renamed on the server, which sshfs shows as another inode. They are held
/// to the scan's end, when what vanished is known, and paired there (`pairs`).
/// The scan job keeps it; the state fills and reads it.
struct HeldArrivals: Sendable {
    struct Arrival: Sendable {
        var directory: ByteString
        var file: ScannedFile
    }

    private(set) var files: [Arrival] = []
    /// The fingerprints of the root's photos when the scan first met an unknown
    /// file, taken once per scan (the root's size, once): a file that matches none
    /// is added at once, as on any root.
    var known: Set<FileFingerprint>?

    var isEmpty: Bool { files.isEmpty }

    mutating func hold(_ file: ScannedFile, in directory: ByteString) {
        files.append(Arrival(directory: directory, file: file))
    }

    /// Which vanished photo each arrival is, where that is certain: a fingerprint
    /// that exactly one vanished photo and exactly one arrival have. Two candidates
    /// on either side (a copy beside a rename, two look-alike files renamed) are
    /// not guessed: those stay a removal and an addition. Returns
    /// (index in `vanished`, index in `arrivals`) pairs.
    static func pairs(vanished: [FileFingerprint], arrivals: [FileFingerprint]) -> [(vanished: Int, arrival: Int)] {
        guard !vanished.isEmpty && !arrivals.isEmpty else { return [] }
        var gone: [FileFingerprint: [Int]] = [:]
        for (index, print) in vanished.enumerated() { gone[print, default: []].append(index) }
        var came: [FileFingerprint: [Int]] = [:]
        for (index, print) in arrivals.enumerated() where gone[print] != nil { came[print, default: []].append(index) }
        var result: [(vanished: Int, arrival: Int)] = []
        for (print, arriving) in came {
            guard arriving.count == 1, let leaving = gone[print], leaving.count == 1 else { continue }
            result.append((vanished: leaving[0], arrival: arriving[0]))
        }
        return result.sorted { $0.arrival < $1.arrival }
    }
}
