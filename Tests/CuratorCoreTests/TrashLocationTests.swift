// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Glibc
import Testing

@Suite("Trash: where the home trash is")
struct TrashLocationTests {
    @Test func followsXDGDataHomeThenHome() {
        let uid = geteuid()
        #expect(TrashConfiguration.forCurrentUser(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"])
            == TrashConfiguration(homeTrash: "/x/data/Trash", homeTrashOwner: uid))
        #expect(TrashConfiguration.forCurrentUser(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]).homeTrash == "/h/.local/share/Trash")
        #expect(TrashConfiguration.forCurrentUser(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).homeTrash == "/h/.local/share/Trash",
                "a relative XDG_DATA_HOME is ignored")
    }

    @Test func theHomeTrashIsCreatedPrivateOnFirstUse() throws {
        let box = try Sandbox()
        // XDG_DATA_HOME itself does not exist yet.
        let dataHome = box.base.appending("deep/er/data")
        let configuration = TrashConfiguration(homeTrash: dataHome.appending("Trash"), homeTrashOwner: geteuid())
        let resolver = TrashResolver(configuration: configuration, effectiveUID: geteuid())
        let photos = try DirectoryHandle.open(box.root, followingSymlinks: false)
        guard case .trash(let trash) = resolver.trash(for: photos, uid: geteuid()) else {
            Issue.record("no trash")
            return
        }
        #expect(trash.path == dataHome.appending("Trash") && trash.topdir == nil)
        for path in ["deep", "deep/er", "deep/er/data", "deep/er/data/Trash", "deep/er/data/Trash/files", "deep/er/data/Trash/info"] {
            #expect(try FileStatus.of(box.base.appending(ByteString(path))).mode & 0o777 == 0o700, "\(path)")
        }
        #expect(trash.infoPath(forOriginal: "/a/b.jpg") == "/a/b.jpg")
    }

    @Test func volumeInfoPathsAreRelativeToTheirTopDirectory() throws {
        let box = try Sandbox()
        try Sandbox.makeDirectories(box.base.appending("t/files"))
        try Sandbox.makeDirectories(box.base.appending("t/info"))
        let files = try DirectoryHandle.open(box.base.appending("t/files"), followingSymlinks: false)
        let info = try DirectoryHandle.open(box.base.appending("t/info"), followingSymlinks: false)
        let volume = TrashDirectory(path: "/mnt/x/.Trash-1", topdir: "/mnt/x", files: files, info: info)
        #expect(volume.infoPath(forOriginal: "/mnt/x/a/b.jpg") == "a/b.jpg")
        #expect(volume.infoPath(forOriginal: "/mnt/xy/b.jpg") == nil)
        #expect(volume.infoPath(forOriginal: "/mnt/x") == nil)
        let top = TrashDirectory(path: "/.Trash-1", topdir: "/", files: files, info: info)
        #expect(top.infoPath(forOriginal: "/srv/b.jpg") == "srv/b.jpg")
    }
}
