// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Glibc
import Testing

@Suite("Trash: may the requester delete it itself?")
struct TrashPermissionTests {
    static let ann = Requester(uid: 1000, gid: 1000, groups: [1000, 100])
    static let root = Requester(uid: 0, gid: 0, groups: [0])

    func status(uid: UInt32, gid: UInt32, mode: UInt32, directory: Bool = true) -> FileStatus {
        var st = stat()
        st.st_uid = uid
        st.st_gid = gid
        st.st_mode = (directory ? S_IFDIR : S_IFREG) | mode
        return FileStatus(st)
    }

    @Test func ownerGroupAndOtherClassesAreExclusive() {
        let ann = Self.ann
        #expect(AccessRule.mayCreate(in: status(uid: 1000, gid: 0, mode: 0o700), ann))
        #expect(!AccessRule.mayCreate(in: status(uid: 1000, gid: 100, mode: 0o570), ann), "owner bits apply to the owner, even if the group may")
        #expect(AccessRule.mayCreate(in: status(uid: 0, gid: 100, mode: 0o770), ann), "a supplementary group counts")
        #expect(!AccessRule.mayCreate(in: status(uid: 0, gid: 100, mode: 0o750), ann))
        #expect(AccessRule.mayCreate(in: status(uid: 0, gid: 0, mode: 0o703), ann))
        #expect(!AccessRule.mayCreate(in: status(uid: 0, gid: 0, mode: 0o702), ann), "write without search is not enough")
        #expect(AccessRule.mayCreate(in: status(uid: 5, gid: 5, mode: 0o000), Self.root))
    }

    @Test func everyDirectoryOnTheWayNeedsSearch() {
        let open = status(uid: 0, gid: 0, mode: 0o755)
        let closed = status(uid: 0, gid: 0, mode: 0o750)
        #expect(AccessRule.maySearch([open, open], Self.ann))
        #expect(!AccessRule.maySearch([open, closed, open], Self.ann))
    }

    @Test func stickyDirectoriesNeedOwnershipOfTheFileOrTheDirectory() {
        let sticky = status(uid: 0, gid: 0, mode: 0o1777)
        let annsFile = status(uid: 1000, gid: 1000, mode: 0o644, directory: false)
        let bobsFile = status(uid: 1001, gid: 1001, mode: 0o666, directory: false)
        #expect(AccessRule.mayRemove(annsFile, from: sticky, Self.ann))
        #expect(!AccessRule.mayRemove(bobsFile, from: sticky, Self.ann))
        #expect(AccessRule.mayRemove(bobsFile, from: status(uid: 1000, gid: 0, mode: 0o1777), Self.ann), "owning the directory is enough")
        #expect(AccessRule.mayRemove(bobsFile, from: status(uid: 0, gid: 0, mode: 0o777), Self.ann), "no sticky bit: write on the directory is enough")
        #expect(!AccessRule.mayRemove(annsFile, from: status(uid: 0, gid: 0, mode: 0o755), Self.ann), "the file's own mode does not matter, the directory's does")
        #expect(AccessRule.mayRemove(bobsFile, from: sticky, Self.root))
    }
}
