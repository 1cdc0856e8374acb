// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// The open-addressing inode table against a plain dictionary, through random
/// inserts, overwrites and removals (removal is where linear probing goes wrong).
struct InodeIndexTests {
    @Test func behavesLikeADictionary() {
        var index = InodeIndex()
        var model: [UInt64: Int64] = [:]
        var generator = SplitMix64(seed: 7)
        // Dense inodes (as a filesystem hands them out), a digest of 0 and of 1
        // (which share a slot key), and large scattered values.
        let digests: [UInt64] = Array(0...3000) + (0..<500).map { _ in generator.next() }
        for step in 0..<60_000 {
            let digest = digests[Int(generator.next() % UInt64(digests.count))]
            let key = digest == 0 ? 1 : digest  // the table's documented merge of 0 into 1
            if generator.next() % 3 == 0 {
                index[digest] = nil
                model[key] = nil
            } else {
                index[digest] = Int64(step)
                model[key] = Int64(step)
            }
            if step % 4999 == 0 || step == 59_999 {
                #expect(index.count == model.count)
                for d in digests { #expect(index[d] == model[d == 0 ? 1 : d], "digest \(d) at step \(step)") }
            }
        }
        // Emptied again, it gives its room back and still answers.
        for d in digests { index[d] = nil }
        #expect(index.count == 0)
        #expect(index[5] == nil)
    }

    @Test func holdsAHundredThousandInAboutTwoMegabytes() {
        var index = InodeIndex()
        for inode in UInt64(1)...100_000 { index[PhotoLibrary.inodeDigest(2049, inode)] = Int64(inode) }
        #expect(index.count == 100_000)
        #expect(index[PhotoLibrary.inodeDigest(2049, 77_777)] == 77_777)
        #expect(index[PhotoLibrary.inodeDigest(2050, 77_777)] == nil)
        #expect(index.capacity * 16 <= 2_500_000)
    }
}
