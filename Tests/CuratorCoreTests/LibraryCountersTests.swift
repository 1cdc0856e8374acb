// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The index's totals alone: photos in and out, capture times read, group roles
/// changed, and replaced photos, each counted where it belongs and back to zero.
struct LibraryCountersTests {
    static func photo(_ id: Int64, root: Int32 = 1, folder: Int32 = 10, size: Int64 = 100, capture: CaptureState = .pending,
                      role: GroupRole = .shown) -> Photo {
        Photo(id: id, rootID: root, folderID: folder, name: ByteString("p\(id).jpg"),
              identity: FileIdentity(device: 1, inode: UInt64(id), size: size, mtimeNs: 1), type: .jpeg, capture: capture,
              rank: 1, role: role)
    }

    @Test func photosInAndOutOfRootsAndFolders() {
        var counters = LibraryCounters()
        let photos = [Self.photo(1), Self.photo(2, size: 50, capture: .none), Self.photo(3, root: 2, folder: 20),
                      Self.photo(4, role: .member)]
        for photo in photos { counters.count(photo, 1) }
        #expect(counters.countByRoot == [1: 3, 2: 1])
        #expect(counters.bytesByRoot == [1: 250, 2: 100])
        #expect(counters.listedByRoot == [1: 2, 2: 1], "a group's member is not listed")
        #expect(counters.listedByFolder == [10: 2, 20: 1])
        #expect(counters.pendingCaptureByRoot == [1: 2, 2: 1])
        for photo in photos { counters.count(photo, -1) }
        #expect(counters.countByRoot == [1: 0, 2: 0] && counters.bytesByRoot == [1: 0, 2: 0])
        #expect(counters.listedByFolder.isEmpty, "an emptied folder leaves no entry")
        #expect(counters.pendingCaptureByRoot == [1: 0, 2: 0])
    }

    @Test func captureReadAndRolesChangedInPlace() {
        var counters = LibraryCounters()
        counters.count(Self.photo(1), 1)
        counters.changeCapture(root: 1, from: .pending, to: .known(5))
        #expect(counters.pendingCaptureByRoot[1] == 0)
        counters.changeCapture(root: 1, from: .known(5), to: .known(6))
        #expect(counters.pendingCaptureByRoot[1] == 0)
        counters.changeRole(root: 1, folder: 10, from: .shown, to: .member)
        #expect(counters.listedByRoot[1] == 0 && counters.listedByFolder[10] == nil)
        counters.changeRole(root: 1, folder: 10, from: .member, to: .shown)
        #expect(counters.listedByRoot[1] == 1 && counters.listedByFolder[10] == 1)
    }

    @Test func aReplacedPhotoMovesItsCountsToTheOneBefore() {
        var counters = LibraryCounters()
        let now = Self.photo(1, capture: .known(9), role: .member)
        counters.count(now, 1)
        counters.replace(now, with: Self.photo(1))  // as a rollback puts the old one back
        #expect(counters.pendingCaptureByRoot[1] == 1 && counters.listedByFolder[10] == 1 && counters.listedByRoot[1] == 1)
        counters.replace(nil, with: Self.photo(2, folder: 11))
        #expect(counters.listedByFolder == [10: 1, 11: 1])
    }

    @Test func loadedTotalsAreTakenAsTheyAre() {
        let counters = LibraryCounters(loaded: [3: PhotoLoad.Totals(rows: 5, bytes: 500, listed: 4, pendingCapture: 2)],
                                       listedByFolder: [30: 4])
        #expect(counters.countByRoot == [3: 5] && counters.bytesByRoot == [3: 500])
        #expect(counters.listedByRoot == [3: 4] && counters.pendingCaptureByRoot == [3: 2] && counters.listedByFolder == [30: 4])
    }
}
