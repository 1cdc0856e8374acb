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

    /// `$XDG_DATA_HOME/Trash -> /elsewhere`: photos must not go where the link
    /// points (`/elsewhere/files`), as `.Trash` on a volume is refused when it is a symlink.
    @Test(arguments: ["Trash", "Trash/files", "Trash/info"])
    func aSymlinkedHomeTrashIsRefused(_ linked: String) throws {
        let box = try Sandbox()
        let elsewhere = box.base.appending("elsewhere")
        try Sandbox.makeDirectories(elsewhere)
        try Sandbox.makeDirectories(box.dataHome)
        if linked != "Trash" { try Sandbox.makeDirectories(box.homeTrash) }
        let link = box.dataHome.appending(ByteString(linked))
        #expect(elsewhere.withCString { target in link.withCString { symlink(target, $0) } } == 0)

        let resolver = TrashResolver(configuration: box.configuration, effectiveUID: geteuid())
        let photos = try DirectoryHandle.open(box.root, followingSymlinks: false)
        guard case .unavailable(let reason) = resolver.trash(for: photos, uid: geteuid()) else {
            Issue.record("a home trash through a symlink was used")
            return
        }
        #expect(reason.contains("\(link) is a symlink"), "\(reason)")
        #expect(Sandbox.names(in: elsewhere).isEmpty, "nothing is created where the link points")

        // And a batch leaves the photo where it is, saying why.
        try box.photo("x.jpg")
        let batch = try box.runner().run(plan: try box.plan(["x.jpg"]), requester: .me)
        #expect(batch.result.items.first?.outcome == .noTrash)
        #expect(batch.result.items.first?.detail?.contains("is a symlink") == true, "\(batch.result.items)")
        #expect(Sandbox.exists(box.root.appending("x.jpg")))
        #expect(Sandbox.names(in: elsewhere).isEmpty)
    }

    /// The home trash is the user's and private: one others may use is set back to 0700.
    @Test func aHomeTrashOthersMayUseIsMadePrivate() throws {
        let box = try Sandbox()
        for dir in [box.homeTrash, box.homeTrash.appending("files"), box.homeTrash.appending("info")] {
            try Sandbox.makeDirectories(dir)
            _ = dir.withCString { chmod($0, 0o777) }
        }
        try box.photo("x.jpg")
        let batch = try box.runner().run(plan: try box.plan(["x.jpg"]), requester: .me)
        #expect(batch.result.items.first?.outcome == .trashed)
        for dir in [box.homeTrash, box.homeTrash.appending("files"), box.homeTrash.appending("info")] {
            #expect(try FileStatus.of(dir).mode & 0o7777 == 0o700, "\(dir)")
        }
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
