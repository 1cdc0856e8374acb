// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Glibc
import Testing

/// Under the system service, a user gets a thumbnail only of a photo it may read
/// itself: search on every folder from the root down, read on the file.
struct PhotoReadAccessTests {
    static let stranger = Requester(uid: 54_321, gid: 54_321, groups: [54_321])

    /// Whether `requester` gets the photo opened (and closes it).
    static func mayRead(root: ByteString, relative: ByteString, _ requester: Requester?) -> Bool {
        guard let photo = try? PhotoReadAccess.open(root: root, relative: relative, for: requester) else { return false }
        try? photo.descriptor.close()
        return true
    }

    @Test func searchOnEveryFolderAndReadOnTheFile() throws {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("a/b/photo.jpg", [1, 2, 3])
        let root = scratch.path
        func mode(_ relative: String, _ bits: mode_t) { #expect(chmod(root.appending(ByteString(relative)).lossyString, bits) == 0) }
        mode("", 0o755)
        mode("a", 0o755)
        mode("a/b", 0o755)
        mode("a/b/photo.jpg", 0o644)
        #expect(Self.mayRead(root: root, relative: "a/b/photo.jpg", Self.stranger))
        mode("a/b/photo.jpg", 0o640)
        #expect(!Self.mayRead(root: root, relative: "a/b/photo.jpg", Self.stranger), "no read for others")
        // The file's group lets a member in.
        var status = stat()
        #expect(stat(root.appending("a/b/photo.jpg").lossyString, &status) == 0)
        let member = Requester(uid: 54_321, gid: 54_321, groups: [54_321, status.st_gid])
        #expect(Self.mayRead(root: root, relative: "a/b/photo.jpg", member))
        mode("a/b/photo.jpg", 0o644)
        mode("a", 0o750)
        #expect(!Self.mayRead(root: root, relative: "a/b/photo.jpg", Self.stranger), "a folder on the way without search")
        #expect(Self.mayRead(root: root, relative: "a/b/photo.jpg", Requester(uid: 0, gid: 0, groups: [])))
        #expect(!Self.mayRead(root: root, relative: "a/b/gone.jpg", Self.stranger))
        #expect(!Self.mayRead(root: root, relative: "../etc/passwd", Self.stranger), "no way out of the root")
    }

    /// A folder on the way that is a symlink is not followed, for anyone: what is
    /// checked is what is read (issue 54).
    @Test func aSymlinkOnTheWayLeadsNowhere() throws {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("elsewhere/photo.jpg", [1, 2, 3])
        let root = scratch.path
        #expect(chmod(root.lossyString, 0o755) == 0 && chmod(root.appending("elsewhere").lossyString, 0o755) == 0)
        #expect(chmod(root.appending("elsewhere/photo.jpg").lossyString, 0o644) == 0)
        #expect(symlink("elsewhere", root.appending("a").lossyString) == 0)
        #expect(Self.mayRead(root: root, relative: "elsewhere/photo.jpg", Self.stranger))
        #expect(Self.mayRead(root: root, relative: "elsewhere/photo.jpg", nil))
        for requester in [Self.stranger, Requester(uid: 0, gid: 0, groups: []), nil] {
            #expect(!Self.mayRead(root: root, relative: "a/photo.jpg", requester), "\(String(describing: requester))")
        }
        #expect(throws: PhotoReadFailure.self) { try PhotoReadAccess.open(root: root, relative: "a/photo.jpg", for: nil) }
    }
}
