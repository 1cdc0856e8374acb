// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Testing

/// What we trash, people's own tools (trash-cli) must see and restore.
@Suite("Trash: interoperability with trash-cli",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/trash-list"), "trash-cli is not installed"))
struct TrashInteropTests {
    /// trash-list prints `YYYY-MM-DD HH:MM:SS /original/path` per entry.
    func listed(_ box: Sandbox) throws -> [String] {
        let output = try Tool.run("/usr/bin/trash-list", [], environment: box.toolEnvironment)
        #expect(output.status == 0, "trash-list: \(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init).filter { $0.contains(box.base.lossyString) }
    }

    @Test func trashListShowsOriginalPathsAndDates() throws {
        let box = try Sandbox()
        let names: [ByteString] = ["Summer 2024/beach #1.jpg", "été/ß.png", "a.jpg"]
        for name in names { try box.photo(name) }
        let batch = try box.runner().run(plan: try box.plan(names), requester: .me)
        #expect(batch.result.trashed == 3)

        let lines = try listed(box)
        #expect(lines.count == 3)
        for name in names {
            let info = try #require(box.info(name.lastComponent))
            let date = info.deletionDate.replacingOccurrences(of: "T", with: " ")
            #expect(lines.contains("\(date) \(box.root.appending(name).lossyString)"), "\(lines)")
        }
    }

    @Test func trashRestorePutsAPhotoBack() throws {
        let box = try Sandbox()
        try box.photo("Summer 2024/beach #1.jpg")
        try box.photo("b.jpg")
        _ = try box.runner().run(plan: try box.plan(["Summer 2024/beach #1.jpg", "b.jpg"]), requester: .me)
        let path = box.root.appending("Summer 2024/beach #1.jpg")
        let output = try Tool.run("/usr/bin/trash-restore", [path.lossyString], environment: box.toolEnvironment, input: "0\n")
        #expect(output.status == 0, "trash-restore: \(output.stdout) \(output.stderr)")
        #expect(Sandbox.read(path) == Sandbox.content(for: "Summer 2024/beach #1.jpg"))
        #expect(box.trashedFiles == ["b.jpg"] && box.infoFiles == ["b.jpg.trashinfo"])
        #expect(try listed(box).count == 1)
    }

    @Test func whatTrashPutLeavesDoesNotConfuseUs() throws {
        let box = try Sandbox()
        try box.photo("IMG.jpg")
        // Someone trashed another IMG.jpg with trash-put first.
        let other = box.base.appending("IMG.jpg")
        try Sandbox.write(other, [1, 2, 3])
        let put = try Tool.run("/usr/bin/trash-put", [other.lossyString], environment: box.toolEnvironment)
        #expect(put.status == 0, "trash-put: \(put.stderr)")
        let batch = try box.runner().run(plan: try box.plan(["IMG.jpg"]), requester: .me)
        #expect(batch.result.trashed == 1)
        #expect(box.trashedFiles.count == 2 && box.infoFiles.count == 2)
        #expect(try listed(box).count == 2)
        let undo = try box.runner().undo(batch: batch.result.batch, requester: .me)
        #expect(undo.result.restored == 1)
        #expect(box.trashedFiles.count == 1, "trash-put's entry is left alone")
    }
}
