// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// What a transaction groups again, alone: folders whole or by the bases of the
/// names it changed, and which rows it added.
struct RegroupQueueTests {
    @Test func basesOfChangedNamesAndWholeFolders() throws {
        var queue = RegroupQueue()
        queue.begin(nextID: 50)
        let jpeg = try #require(ShotKeys("IMG_0001.JPG"))
        let sidecar = try #require(ShotKeys("IMG_0001.JPG.xmp"))
        queue.touch(7, jpeg)
        queue.touch(7, sidecar)
        #expect(queue.keysByFolder[7] == Set([jpeg.first, sidecar.first] + [sidecar.second].compactMap { $0 }))
        #expect(!queue.isWhole(7))
        queue.regroupWhole(8)
        queue.regroupWhole(8)
        #expect(queue.isWhole(8) && queue.popWhole() == 8 && queue.popWhole() == nil)
    }

    @Test func rowsAddedInTheTransactionAreFresh() {
        var queue = RegroupQueue()
        #expect(!queue.isFresh(1) && !queue.isFresh(.max - 1), "no transaction: nothing is fresh")
        queue.begin(nextID: 50)
        #expect(queue.isFresh(50) && queue.isFresh(60) && !queue.isFresh(49))
        queue.returned(12)  // came back from the trash under its former id
        #expect(queue.isFresh(12))
        queue.touch(3, ShotKeys("a.jpg")!)
        queue.regroupWhole(4)
        queue.end()
        #expect(!queue.isFresh(12) && !queue.isFresh(50))
        #expect(queue.keysByFolder.isEmpty && queue.wholeFolders.isEmpty)
    }
}
