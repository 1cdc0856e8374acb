// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// `PhotoGrouping`'s rules worked out by index, from names read in place: which
/// group and role each name of one folder takes. Pure, like `PhotoGrouping` (which
/// is this plus names), and what a regrouping of the index runs on: a first scan
/// groups some 30 000 names at 100 000 photos, and a name copied, case folded,
/// hashed into dictionaries of arrays and compared back (as `FolderGrouping`'s
/// names were) cost more than the rest of grouping. Here bases are 64-bit digests
/// of the bytes in place (`ShotKeys`), shots are chains through one array, and
/// names that share a digest are told apart by their bytes, so a collision costs
/// time, never a wrong group.
struct GroupAssignment {
    /// Per name: the index of its group in `shown`; -1 for a name in no group (an
    /// orphan, an undecided sidecar, a name that is neither photo nor sidecar).
    private(set) var group: [Int32]
    /// Per name: its role. A name in no group is `.orphan` or `.undecided` (also a
    /// name that is no photo nor sidecar, and every sidecar where grouping is off).
    private(set) var role: [GroupRole]
    /// Per group: the index of the photo that shows it.
    private(set) var shown: [Int32] = []
    /// Per photo in a group: the next photo of its group in member order (the shown
    /// one first, then rendered, RAW, clip); -1 after the last.
    private(set) var nextPhoto: [Int32]
    /// Per sidecar of one file (`IMG_0001.CR2.xmp`) in a group: the index of that file; else -1.
    private(set) var sidecarOf: [Int32]
    /// Per photo or sidecar: its type by extension (a name that is neither has `.jpeg`, unread).
    private(set) var types: [PhotoType]

    var groupCount: Int { shown.count }

    /// The photos of group `g`, the shown one first.
    func photos(ofGroup g: Int) -> PhotoChain { PhotoChain(next: nextPhoto, first: shown[g]) }

    /// Indices down a chain of links (-1 ends it).
    struct PhotoChain: Sequence, IteratorProtocol {
        let links: [Int32]
        var first: Int32

        init(next links: [Int32], first: Int32) {
            self.links = links
            self.first = first
        }

        mutating func next() -> Int? {
            guard first >= 0 else { return nil }
            defer { first = links[Int(first)] }
            return Int(first)
        }
    }

    /// Groups `count` names, name `i` being `name(i)`'s bytes.
    init(count: Int, settings: GroupSettings, name: (Int) -> UnsafeBufferPointer<UInt8>) {
        let work = Work(count: count)
        defer { work.deallocate() }
        shown = work.assign(settings: settings, name: name)
        group = Array(work.group)
        role = Array(work.role)
        nextPhoto = Array(work.nextPhoto)
        sidecarOf = Array(work.sidecarOf)
        types = Array(work.types)
    }

    /// The grouping's per-name columns, in buffers for the time of one grouping: a
    /// folder's names are read and written several times each, and through arrays
    /// every access was bounds-checked and every write checked for uniqueness
    /// (a third of the grouping's instructions at a cold start).
    private struct Work {
        let group: UnsafeMutableBufferPointer<Int32>
        let role: UnsafeMutableBufferPointer<GroupRole>
        let nextPhoto: UnsafeMutableBufferPointer<Int32>
        let sidecarOf: UnsafeMutableBufferPointer<Int32>
        let types: UnsafeMutableBufferPointer<PhotoType>
        /// What each name is: a photo of base `0..<end`, a sidecar of the shot
        /// `0..<end`, a sidecar of the file `0..<end`, or nothing.
        let kinds: UnsafeMutableBufferPointer<Kind>
        let ends: UnsafeMutableBufferPointer<Int32>
        /// Photos chained by the digest of their folded base (heads in `DigestHeads`).
        let photoNext: UnsafeMutableBufferPointer<Int32>
        let digests: UnsafeMutableBufferPointer<UInt64>
        /// Per photo: another photo has its digest (it is not alone with its base).
        let sharesDigest: UnsafeMutableBufferPointer<Bool>
        /// Per photo: the index of the first photo of its base (its base's name).
        let baseOf: UnsafeMutableBufferPointer<Int32>
        /// Per base (by its first photo): the group its shot sidecars join, or -1,
        /// and whether a photo not of the root's types has that base.
        let baseGroup: UnsafeMutableBufferPointer<Int32>
        let foreign: UnsafeMutableBufferPointer<Bool>
        let count: Int
        /// Every column's memory, freed together by `deallocate`.
        private let allocations: [UnsafeMutableRawPointer]

        init(count: Int) {
            var allocations: [UnsafeMutableRawPointer] = []
            func buffer<T>(_ value: T) -> UnsafeMutableBufferPointer<T> {
                let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
                buffer.initialize(repeating: value)
                if let base = buffer.baseAddress { allocations.append(UnsafeMutableRawPointer(base)) }
                return buffer
            }
            self.count = count
            group = buffer(-1)
            role = buffer(.undecided)
            nextPhoto = buffer(-1)
            sidecarOf = buffer(-1)
            types = buffer(.jpeg)
            kinds = buffer(.other)
            ends = buffer(0)
            photoNext = buffer(-1)
            digests = buffer(0)
            sharesDigest = buffer(false)
            baseOf = buffer(-1)
            baseGroup = buffer(-1)
            foreign = buffer(false)
            self.allocations = allocations
        }

        func deallocate() {
            // Every element is a trivial type: nothing to deinitialize.
            for memory in allocations { memory.deallocate() }
        }

        /// Fills the columns; returns the groups' shown photos.
        func assign(settings: GroupSettings, name: (Int) -> UnsafeBufferPointer<UInt8>) -> [Int32] {
            var shown: [Int32] = []
            func startGroup(_ photo: Int) {
                group[photo] = Int32(shown.count)
                role[photo] = .shown
                shown.append(Int32(photo))
            }
            var photoHeads = DigestHeads(capacity: count)
            for i in 0..<count {
                let bytes = name(i)
                guard let (type, dot) = ShotKeys.fileType(bytes) else { continue }
                types[i] = type
                ends[i] = Int32(dot)
                if !type.isSidecar {
                    kinds[i] = settings.types.contains(type) ? .photo : .foreignPhoto
                    let digest = GroupAssignment.digest(bytes, dot)
                    digests[i] = digest
                    let previous = photoHeads.exchange(digest, Int32(i))
                    photoNext[i] = previous
                    if previous >= 0 {
                        sharesDigest[i] = true
                        sharesDigest[Int(previous)] = true
                    }
                } else if SidecarFormat(type) != nil {
                    let stem = UnsafeBufferPointer(rebasing: bytes[..<dot])
                    if let (file, _) = ShotKeys.fileType(stem), !file.isSidecar {
                        kinds[i] = .fileSidecar
                    } else {
                        kinds[i] = .shotSidecar
                        digests[i] = GroupAssignment.digest(bytes, dot)
                    }
                }
            }

            // Each base's photos (those of the root's types) made into groups.
            var members: [Int] = []
            for i in 0..<count where (kinds[i] == .photo || kinds[i] == .foreignPhoto) && baseOf[i] < 0 {
                // Alone with its digest (most photos): a base of one photo, found without a list.
                if !sharesDigest[i] {
                    baseOf[i] = Int32(i)
                    if kinds[i] == .photo {
                        startGroup(i)
                        baseGroup[i] = Int32(shown.count - 1)
                    } else {
                        foreign[i] = true
                    }
                    continue
                }
                // The photos of i's base: down the chain of its digest, by their bytes.
                members.removeAll(keepingCapacity: true)
                var j = photoHeads[digests[i]]
                while j >= 0 {
                    let other = Int(j)
                    if baseOf[other] < 0,
                       other == i || GroupAssignment.foldedEqual(name(i), Int(ends[i]), name(other), Int(ends[other])) {
                        baseOf[other] = Int32(i)
                        if kinds[other] == .photo { members.append(other) } else { foreign[i] = true }
                    }
                    j = photoNext[other]
                }
                guard !members.isEmpty else { continue }
                if !settings.enabled || members.count == 1 || !PhotoGrouping.fillsDistinctPlaces(members.lazy.map { types[$0] }) {
                    for photo in members { startGroup(photo) }
                    if members.count == 1 { baseGroup[i] = Int32(shown.count - 1) }
                    continue
                }
                // One of each kind: the shown photo by the root's choice, then the others
                // rendered, RAW, clip (their ranks differ, as their kinds do).
                // Two or three photos (one of each kind, distinct ranks): sorted by
                // insertion, where `sort` through a closure cost ten times as much.
                for k in 1..<members.count {
                    let photo = members[k]
                    var j = k
                    while j > 0, PhotoGrouping.rank(types[members[j - 1]], .rendered) > PhotoGrouping.rank(types[photo], .rendered) {
                        members[j] = members[j - 1]
                        j -= 1
                    }
                    members[j] = photo
                }
                var first = members[0]
                for photo in members where PhotoGrouping.rank(types[photo], settings.shown) < PhotoGrouping.rank(types[first], settings.shown) {
                    first = photo
                }
                startGroup(first)
                var last = first
                for photo in members where photo != first {
                    group[photo] = Int32(shown.count - 1)
                    role[photo] = .member
                    nextPhoto[last] = Int32(photo)
                    last = photo
                }
                baseGroup[i] = Int32(shown.count - 1)
            }

            guard settings.enabled else { return shown }
            for i in 0..<count {
                switch kinds[i] {
                case .shotSidecar:
                    var j = photoHeads[digests[i]]
                    var base = -1
                    while j >= 0 {
                        if GroupAssignment.foldedEqual(name(i), Int(ends[i]), name(Int(j)), Int(ends[Int(j)])) {
                            base = Int(baseOf[Int(j)])
                            break
                        }
                        j = photoNext[Int(j)]
                    }
                    if base < 0 {
                        role[i] = .orphan
                    } else if baseGroup[base] >= 0 && !foreign[base] {
                        group[i] = baseGroup[base]
                        role[i] = .sidecar
                    } else if foreign[base] {
                        role[i] = .undecided  // it may be the sidecar of an image the root does not count
                    } else {
                        // Several photos of its base, not grouped (two rendered files): none
                        // takes it, so it is listed as an orphan, where its user can find it.
                        role[i] = .orphan
                    }
                case .fileSidecar:
                    let bytes = name(i)
                    let file = UnsafeBufferPointer(rebasing: bytes[..<Int(ends[i])])
                    var image = GroupAssignment.image(of: file, photoHeads: photoHeads, photoNext: photoNext, name: name)
                    if image == .none, types[i] == .xmp, let original = GroupAssignment.darktableOriginal(bytes, fileEnd: Int(ends[i])) {
                        image = original.withUnsafeBufferPointer {
                            GroupAssignment.image(of: $0, photoHeads: photoHeads, photoNext: photoNext, name: name)
                        }
                    }
                    switch image {
                    case .one(let file) where kinds[file] == .photo:
                        group[i] = group[file]
                        role[i] = .sidecar
                        sidecarOf[i] = Int32(file)
                    case .one:
                        role[i] = .undecided  // an image of a type the root does not count
                    case .several:
                        role[i] = .orphan  // which of several it is about cannot be told: listed as an orphan
                    case .none:
                        role[i] = .orphan
                    }
                case .photo, .foreignPhoto, .other:
                    break
                }
            }
            return shown
        }
    }

    fileprivate enum Kind: UInt8 {
        case photo, foreignPhoto, shotSidecar, fileSidecar, other
    }

    private enum Image: Equatable {
        case one(Int)
        case several
        case none
    }

    /// The name `file` (a photo's, by its extension) names: itself, or else the
    /// one name that differs from it only in case. Such a name is a photo of the
    /// same base, so it is looked for down that base's chain of photos: an index
    /// of every name, exact and case folded, cost two more hashes per name of each
    /// folder holding a file's sidecar (most folders with a RAW).
    private static func image(of file: UnsafeBufferPointer<UInt8>, photoHeads: DigestHeads, photoNext: UnsafeMutableBufferPointer<Int32>,
                              name: (Int) -> UnsafeBufferPointer<UInt8>) -> Image {
        guard let (_, dot) = ShotKeys.fileType(file) else { return .none }
        var found = Image.none
        var j = photoHeads[digest(file, dot)]
        while j >= 0 {
            let candidate = name(Int(j))
            if candidate.count == file.count, exactlyEqual(candidate, file) { return .one(Int(j)) }
            if foldedEqual(candidate, candidate.count, file, file.count) { found = found == .none ? .one(Int(j)) : .several }
            j = photoNext[Int(j)]
        }
        return found
    }

    /// The file a darktable duplicate's sidecar is about (`ShotName.darktableOriginal`):
    /// `IMG_0001_01.CR2` of `IMG_0001_01.CR2.xmp` names `IMG_0001.CR2`. `fileEnd`: where
    /// the file's name ends in the sidecar's.
    private static func darktableOriginal(_ bytes: UnsafeBufferPointer<UInt8>, fileEnd: Int) -> [UInt8]? {
        var dot = fileEnd - 1
        while dot > 0, bytes[dot] != UInt8(ascii: ".") { dot -= 1 }
        guard dot > 0 else { return nil }
        var i = dot
        while i > 0, bytes[i - 1] >= UInt8(ascii: "0"), bytes[i - 1] <= UInt8(ascii: "9") { i -= 1 }
        let digits = dot - i
        guard (2...3).contains(digits), (i..<dot).contains(where: { bytes[$0] != UInt8(ascii: "0") }),
              i - 1 > 0, bytes[i - 1] == UInt8(ascii: "_") else { return nil }
        return Array(bytes[..<(i - 1)]) + Array(bytes[dot..<fileEnd])
    }

    /// Whether `a[..<aEnd]` and `b[..<bEnd]` are equal with ASCII letters case folded.
    private static func foldedEqual(_ a: UnsafeBufferPointer<UInt8>, _ aEnd: Int, _ b: UnsafeBufferPointer<UInt8>, _ bEnd: Int) -> Bool {
        guard aEnd == bEnd else { return false }
        // Mostly the same bytes (a pair's base, spelt alike): compared at once.
        if let pa = a.baseAddress, let pb = b.baseAddress, memcmp(pa, pb, aEnd) == 0 { return true }
        for k in 0..<aEnd where a[k] != b[k] {
            if Self.fold(a[k]) != Self.fold(b[k]) { return false }
        }
        return true
    }

    /// Whether `a` and `b` (of one length) hold the same bytes: `elementsEqual`
    /// went byte by byte through the buffers' iterators.
    private static func exactlyEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return a.count == b.count }
        return memcmp(pa, pb, a.count) == 0
    }

    private static func fold(_ byte: UInt8) -> UInt8 { (byte >= 65 && byte <= 90) ? byte + 32 : byte }

    /// The digest of `bytes[..<end]` case folded (`ShotKeys`' digest of a base).
    private static func digest(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int) -> UInt64 {
        ShotKeys.digest(bytes, 0, end)
    }

}
