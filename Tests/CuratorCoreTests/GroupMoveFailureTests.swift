// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Testing

/// A group's move failing in the middle of a live batch (issue 15): the files of the
/// group already in the trash come back, so the group is all in place, the batch
/// says why, and the other photos of the batch are trashed as planned. The crash
/// matrix covers a kill between two moves; this is the batch itself meeting a
/// refused `rename` (an immutable file: `EPERM` even for root).
@Suite("Groups: a move refused mid-group puts the group back whole", .serialized)
struct GroupMoveFailureTests {
    static let chattr = "/usr/bin/chattr"

    @Test func aRefusedMoveInTheMiddleOfAGroupPutsItsTrashedFilesBack() throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: Self.chattr) else {
            print("skipped: needs root and chattr to make a file immutable")
            return
        }
        let box = try Sandbox()
        // chattr needs a file system with inode flags (ext4, xfs, btrfs; not tmpfs).
        let probe = box.base.appending("probe")
        try Sandbox.write(probe, [1])
        guard (try? Tool.run(Self.chattr, ["+i", probe.lossyString]))?.status == 0 else {
            print("skipped: \(box.base.lossyString) takes no immutable flag")
            return
        }
        _ = try? Tool.run(Self.chattr, ["-i", probe.lossyString])
        let group: [ByteString] = ["2024/IMG_0001.xmp", "2024/IMG_0001.CR2", "2024/IMG_0001.JPG"]
        for name in group + ["2024/IMG_0002.JPG"] { try box.photo(name) }
        let sums = Dictionary(uniqueKeysWithValues: group.map { ($0, Sandbox.read(box.root.appending($0)).map(checksum)) })
        let lockPath = box.root.appending("2024/IMG_0001.CR2").lossyString
        // The plan's order: the lone photo, then the group with its shown file last.
        var items = [try box.item(4, "2024/IMG_0002.JPG")]
        for (offset, name) in group.enumerated() {
            var item = try box.item(Int64(offset + 1), name)
            item.unit = 3
            items.append(item)
        }
        // The group's second file is made immutable once its .trashinfo is written: its
        // rename into the trash fails after the first file of the group has moved.
        let immutable = Failpoints(point: .itemInfoWritten, count: 3, action: .run({
            _ = try? Tool.run(Self.chattr, ["+i", lockPath])
        }))
        defer { _ = try? Tool.run(Self.chattr, ["-i", lockPath]) }
        let outcome = try box.runner(failpoints: immutable, chunkSize: 100)
            .run(plan: BatchPlan(session: "test", items: items), requester: .me)
        let result = outcome.result

        for name in group {
            #expect(Sandbox.read(box.root.appending(name)).map(checksum) == sums[name], "\(name) is not back in place, intact")
        }
        #expect(!Sandbox.exists(box.root.appending("2024/IMG_0002.JPG")), "the lone photo was trashed")
        #expect(box.trashedFiles == ["IMG_0002.JPG"], "\(box.trashedFiles)")
        #expect(box.infoFiles == ["IMG_0002.JPG.trashinfo"], "\(box.infoFiles)")
        #expect(result.trashed == 1 && result.skipped == 3, "\(result)")
        let byPath = Dictionary(uniqueKeysWithValues: result.items.map { ($0.path, $0) })
        #expect(byPath["2024/IMG_0002.JPG"]?.outcome == .trashed)
        for name in group.map(\.lossyString) {
            #expect(byPath[name]?.outcome != .trashed, "\(name): \(String(describing: byPath[name]))")
        }
        #expect(byPath["2024/IMG_0001.CR2"]?.detail?.contains("EPERM") == true, "\(result.items)")
        for name in ["2024/IMG_0001.xmp", "2024/IMG_0001.JPG"] {
            #expect(byPath[name]?.detail?.hasPrefix("put back with its group: IMG_0001.CR2 is error") == true,
                    "\(name) does not say which file held its group back: \(String(describing: byPath[name]?.detail))")
        }
        // The journal agrees with the disk: nothing of the group is left to undo.
        let journaled = try box.runner().journal.items(of: result.batch)
        #expect(journaled.filter { $0.unit == 3 }.allSatisfy { $0.state != .trashed }, "\(journaled.map(\.state))")
    }
}
