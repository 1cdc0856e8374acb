// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Glibc
import Testing

@Suite("Trash: may the requester delete it itself?")
struct TrashPermissionTests {
    static let ann = Requester(uid: 1000, gid: 1000, groups: [1000, 100])
    static let root = Requester(uid: 0, gid: 0, groups: [0])

    func file(uid: UInt32, gid: UInt32, mode: UInt32) -> FileStatus {
        var st = stat()
        st.st_uid = uid
        st.st_gid = gid
        st.st_mode = S_IFREG | mode
        return FileStatus(st)
    }

    func status(uid: UInt32, gid: UInt32, mode: UInt32, acl: AccessControlList? = nil) -> FolderPermissions {
        FolderPermissions(uid: uid, gid: gid, mode: S_IFDIR | mode, acl: acl)
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
        let annsFile = file(uid: 1000, gid: 1000, mode: 0o644)
        let bobsFile = file(uid: 1001, gid: 1001, mode: 0o666)
        #expect(AccessRule.mayRemove(annsFile, from: sticky, Self.ann))
        #expect(!AccessRule.mayRemove(bobsFile, from: sticky, Self.ann))
        #expect(AccessRule.mayRemove(bobsFile, from: status(uid: 1000, gid: 0, mode: 0o1777), Self.ann), "owning the directory is enough")
        #expect(AccessRule.mayRemove(bobsFile, from: status(uid: 0, gid: 0, mode: 0o777), Self.ann), "no sticky bit: write on the directory is enough")
        #expect(!AccessRule.mayRemove(annsFile, from: status(uid: 0, gid: 0, mode: 0o755), Self.ann), "the file's own mode does not matter, the directory's does")
        #expect(AccessRule.mayRemove(bobsFile, from: sticky, Self.root))
    }

    // MARK: ACLs (acl(5), the access check algorithm)

    static func acl(_ entries: [(AccessControlList.Tag, UInt32)]) -> AccessControlList {
        AccessControlList(entries: entries.map { AccessControlList.Entry(tag: $0.0, permissions: $0.1) })
    }

    @Test func aNamedUserEntryGrantsWhatTheModeRefuses() {
        // setfacl -m u:1000:rx on a 0750 root:root folder (the mask becomes r-x).
        let folder = status(uid: 0, gid: 0, mode: 0o750,
                            acl: Self.acl([(.owner, 7), (.user(1000), 5), (.owningGroup, 5), (.mask, 5), (.other, 0)]))
        #expect(AccessRule.mayList(folder, below: [], Self.ann))
        #expect(!AccessRule.mayCreate(in: folder, Self.ann), "the entry gives read and search, not write")
        let bob = Requester(uid: 1001, gid: 1001, groups: [1001])
        #expect(!AccessRule.mayList(folder, below: [], bob), "other has nothing")
    }

    @Test func aNamedUserEntryRefusesWhatOtherWouldGive() {
        // Mode bits alone would let ann (other: rwx) in; her named entry says ---.
        let folder = status(uid: 0, gid: 0, mode: 0o777,
                            acl: Self.acl([(.owner, 7), (.user(1000), 0), (.owningGroup, 7), (.mask, 7), (.other, 7)]))
        #expect(!AccessRule.mayList(folder, below: [], Self.ann))
        #expect(!AccessRule.mayCreate(in: folder, Self.ann))
    }

    @Test func theMaskLimitsNamedEntriesAndGroupsButNotTheOwnerOrOther() {
        let folder = status(uid: 1000, gid: 0, mode: 0o700,
                            acl: Self.acl([(.owner, 7), (.user(1001), 7), (.group(100), 7), (.owningGroup, 0), (.mask, 1), (.other, 5)]))
        let bob = Requester(uid: 1001, gid: 1001, groups: [1001])
        let cid = Requester(uid: 1002, gid: 1002, groups: [1002, 100])
        let dan = Requester(uid: 1003, gid: 1003, groups: [1003])
        #expect(AccessRule.mayCreate(in: folder, Self.ann), "the owner entry is not masked")
        #expect(!AccessRule.mayList(folder, below: [], bob), "rwx & mask --x: search only")
        #expect(AccessRule.maySearch([folder], bob))
        #expect(!AccessRule.mayList(folder, below: [], cid), "a matching group entry, masked, decides: no fall-through to other")
        #expect(AccessRule.mayList(folder, below: [], dan), "other is not masked")
    }

    @Test func anyMatchingGroupEntryThatGrantsIsEnough() {
        let folder = status(uid: 0, gid: 50, mode: 0o700,
                            acl: Self.acl([(.owner, 7), (.owningGroup, 0), (.group(100), 5), (.mask, 7), (.other, 0)]))
        let member = Requester(uid: 1002, gid: 1002, groups: [1002, 50, 100])
        #expect(AccessRule.mayList(folder, below: [], member), "group 50 gives nothing, group 100 read and search")
    }

    @Test func listingNeedsSearchAboveAndReadAndSearchOnTheFolder() {
        let open = status(uid: 0, gid: 0, mode: 0o755)
        let searchOnly = status(uid: 0, gid: 0, mode: 0o711)
        let readOnly = status(uid: 0, gid: 0, mode: 0o744)
        #expect(AccessRule.mayList(open, below: [open, searchOnly], Self.ann), "x on the way down is enough")
        #expect(!AccessRule.mayList(searchOnly, below: [open], Self.ann), "the folder itself needs r")
        #expect(!AccessRule.mayList(open, below: [readOnly], Self.ann), "a folder above needs x")
        #expect(AccessRule.mayList(status(uid: 0, gid: 0, mode: 0o700), below: [readOnly], Self.root))
    }
}
