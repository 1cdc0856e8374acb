// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// The open-addressing inode table against a plain dictionary, through random
/// inserts, overwrites and removals (removal is where linear probing goes wrong).
/// The index stores 32-bit tags and confirms a match by the digest of the photo
/// it names, which the tests keep in `digestByID` as the photo table would.
struct InodeIndexTests {
    /// The inverse of the index's odd multiplier modulo 2^64 (Newton's iteration),
    /// to make digests whose 32-bit tags are the same.
    static let inverse: UInt64 = {
        let a: UInt64 = 0x9E37_79B9_7F4A_7C15
        var x = a
        for _ in 0..<6 { x = x &* (2 &- a &* x) }
        return x
    }()

    /// A digest whose tag is `tag` (its mixed value's high half) and low half `low`.
    static func digest(tag: UInt32, low: UInt32) -> UInt64 { (UInt64(tag) << 32 | UInt64(low)) &* inverse }

    @Test func behavesLikeADictionary() {
        var index = InodeIndex()
        var model: [UInt64: Int64] = [:]
        var digestByID: [Int64: UInt64] = [:]
        var generator = SplitMix64(seed: 7)
        // Dense inodes (as a filesystem hands them out), digests 0 and 1, large
        // scattered values, and runs of digests that share a tag (tag 0 is stored
        // as 1, so those two tags are one too).
        var digests: [UInt64] = Array(0...3000) + (0..<500).map { _ in generator.next() }
        digests += (0..<40).map { Self.digest(tag: 0xDEAD_BEEF, low: $0) } + (0..<10).map { Self.digest(tag: $0 % 2, low: $0) }
        let wideEvery: Int64 = 97  // some ids past 32 bits, as only a corrupt index has
        for step in 0..<60_000 {
            let digest = digests[Int(generator.next() % UInt64(digests.count))]
            let lookUp = { (id: Int64) in digestByID[id] }
            if generator.next() % 3 == 0 {
                // `set` tells what it replaced, as `find` would have (the library's undo log keeps it).
                if let old = model[digest] { #expect(index.set(digest, nil, digestOf: lookUp) == old); digestByID[old] = nil }
                model[digest] = nil
            } else {
                let id = Int64(step) % wideEvery == 0 ? (1 << 33) + Int64(step) : Int64(step)
                digestByID[id] = digest
                #expect(index.set(digest, id, digestOf: { digestByID[$0] }) == model[digest])
                if let old = model[digest] { digestByID[old] = nil }
                model[digest] = id
            }
            if step % 4999 == 0 || step == 59_999 {
                #expect(index.count == model.count)
                for d in digests { #expect(index.find(d, digestOf: { digestByID[$0] }) == model[d], "digest \(d) at step \(step)") }
            }
        }
        // Emptied again, it gives its room back and still answers.
        for d in digests { index.set(d, nil, digestOf: { digestByID[$0] }) }
        #expect(index.count == 0)
        #expect(index.capacity < 64)
        #expect(index.find(5, digestOf: { digestByID[$0] }) == nil)
    }

    /// Two digests with one tag are two entries: the index tells them apart by the
    /// digest of the photo each slot names, not by the tag.
    @Test func tellsApartDigestsThatShareATag() {
        var index = InodeIndex()
        let a = Self.digest(tag: 77, low: 1), b = Self.digest(tag: 77, low: 2)
        let digests: [Int64: UInt64] = [1: a, 2: b]
        index.set(a, 1, digestOf: { digests[$0] })
        index.set(b, 2, digestOf: { digests[$0] })
        #expect(index.count == 2)
        #expect(index.find(a, digestOf: { digests[$0] }) == 1)
        #expect(index.find(b, digestOf: { digests[$0] }) == 2)
        index.set(a, nil, digestOf: { digests[$0] })
        #expect(index.find(b, digestOf: { digests[$0] }) == 2)
        #expect(index.find(a, digestOf: { digests[$0] }) == nil)
    }

    @Test func holdsAHundredThousandInAboutOneMegabyte() {
        var index = InodeIndex()
        let digest = { (id: Int64) in PhotoLibrary.inodeDigest(2049, UInt64(id)) }
        for inode in UInt64(1)...100_000 { index.set(PhotoLibrary.inodeDigest(2049, inode), Int64(inode), digestOf: { digest($0) }) }
        #expect(index.count == 100_000)
        #expect(index.find(PhotoLibrary.inodeDigest(2049, 77_777), digestOf: { digest($0) }) == 77_777)
        #expect(index.find(PhotoLibrary.inodeDigest(2050, 77_777), digestOf: { digest($0) }) == nil)
        #expect(index.capacity * 8 <= 1_250_000)
    }
}
