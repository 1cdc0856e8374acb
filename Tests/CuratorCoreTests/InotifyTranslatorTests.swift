// SPDX-License-Identifier: GPL-2.0-or-later
import CInotifyTools
@testable import CuratorCore
import CuratorSystem
import Testing

/// Kernel events to hints, without the kernel: paths from the watch table, flags
/// that matter, cookies, the root's own events, and watches that follow a folder
/// renamed inside its root at once.
@Suite struct InotifyTranslatorTests {
    static let root: Int32 = 3

    /// A translator watching the root (wd 1), `album` (wd 2) and `album/deep` (wd 3).
    static func translator() -> InotifyTranslator {
        var t = InotifyTranslator()
        t.table.insert(wd: 1, root: root, path: .empty)
        t.table.insert(wd: 2, root: root, path: ByteString("album"))
        t.table.insert(wd: 3, root: root, path: ByteString("album/deep"))
        return t
    }

    static func event(_ wd: Int32, _ mask: Int32, _ name: String = "", cookie: UInt32 = 0) -> InotifyEvent {
        InotifyEvent(wd: wd, mask: UInt32(bitPattern: mask), cookie: cookie, name: ByteString(name))
    }

    static func hint(_ kind: Hint.Kind) -> InotifyTranslator.Output { .hint(Hint(root: root, kind: kind)) }

    @Test func fileEventsBecomePathHintsWithTheirFlags() {
        var t = Self.translator()
        #expect(t.translate(Self.event(2, IN_CREATE, "a.jpg"), now: 0) == Self.hint(.path(ByteString("album/a.jpg"), .awaitingClose)))
        #expect(t.translate(Self.event(2, IN_CLOSE_WRITE, "a.jpg"), now: 0) == Self.hint(.path(ByteString("album/a.jpg"), .written)))
        #expect(t.translate(Self.event(3, IN_ATTRIB, "b.jpg"), now: 0) == Self.hint(.path(ByteString("album/deep/b.jpg"), .attributes)))
        #expect(t.translate(Self.event(1, IN_DELETE, "c.jpg"), now: 0) == Self.hint(.path(ByteString("c.jpg"), .deleted)))
        #expect(t.translate(Self.event(1, IN_CREATE | IN_ISDIR, "new"), now: 0) == Self.hint(.path(ByteString("new"), .directoryCreated)))
        #expect(t.translate(Self.event(1, IN_DELETE | IN_ISDIR, "old"), now: 0) == Self.hint(.path(ByteString("old"), .directoryDeleted)))
        // A folder whose mode changed (it may have been unreadable when it came).
        #expect(t.translate(Self.event(1, IN_ATTRIB | IN_ISDIR, "album"), now: 0)
            == Self.hint(.path(ByteString("album"), .directoryAttributes)))
    }

    @Test func eventsNobodyNeedsAreDropped() {
        var t = Self.translator()
        // An unknown watch (dropped meanwhile), a folder's own events, a folder's close.
        #expect(t.translate(Self.event(99, IN_CREATE, "a.jpg"), now: 0) == .nothing)
        #expect(t.translate(Self.event(2, IN_DELETE_SELF), now: 0) == .nothing)
        #expect(t.translate(Self.event(2, IN_ATTRIB), now: 0) == .nothing)
        #expect(t.translate(Self.event(1, IN_CLOSE_WRITE | IN_ISDIR, "album"), now: 0) == .nothing)
    }

    @Test func syncCookiesAtTheTopOfTheRootAreCookieHints() {
        var t = Self.translator()
        let name = ".curatord-cookie-42-7"
        #expect(t.translate(Self.event(1, IN_CREATE, name), now: 0) == Self.hint(.cookie(ByteString(name))))
        // Its other events are nobody's business; below the top it is an ordinary file.
        #expect(t.translate(Self.event(1, IN_CLOSE_WRITE, name), now: 0) == .nothing)
        #expect(t.translate(Self.event(1, IN_DELETE, name), now: 0) == .nothing)
        #expect(t.translate(Self.event(2, IN_CREATE, name), now: 0) == Self.hint(.path(ByteString("album/" + name), .awaitingClose)))
    }

    @Test func theRootsOwnEventsAskForACheck() {
        var t = Self.translator()
        #expect(t.translate(Self.event(1, IN_MOVE_SELF), now: 0) == Self.hint(.rootChanged))
        #expect(t.translate(Self.event(1, IN_DELETE_SELF), now: 0) == Self.hint(.rootChanged))
        #expect(t.translate(Self.event(3, IN_UNMOUNT), now: 0) == Self.hint(.rootChanged))
        // The kernel dropped a watch: the library must forget it; the root's asks for a check.
        #expect(t.translate(Self.event(3, IN_IGNORED), now: 0) == .watchDropped(wd: 3, hint: nil))
        #expect(t.table.entry(3) == nil)
        #expect(t.translate(Self.event(1, IN_IGNORED), now: 0) == .watchDropped(wd: 1, hint: Hint(root: Self.root, kind: .rootChanged)))
        #expect(t.translate(Self.event(-1, IN_Q_OVERFLOW), now: 0) == .overflow)
    }

    @Test func aFolderRenamedInsideTheRootTakesItsWatchesAlongAtOnce() {
        var t = Self.translator()
        #expect(t.translate(Self.event(1, IN_MOVED_FROM | IN_ISDIR, "album", cookie: 9), now: 0)
            == Self.hint(.movedFrom(ByteString("album"), cookie: 9, isDirectory: true)))
        #expect(t.translate(Self.event(1, IN_MOVED_TO | IN_ISDIR, "trip", cookie: 9), now: 0)
            == Self.hint(.movedTo(ByteString("trip"), cookie: 9, isDirectory: true)))
        // The next event in the renamed folder already carries its new path.
        #expect(t.translate(Self.event(3, IN_CLOSE_WRITE, "x.jpg"), now: 0) == Self.hint(.path(ByteString("trip/deep/x.jpg"), .written)))
        #expect(t.table.wd(root: Self.root, path: ByteString("album")) == nil)
        #expect(t.table.wd(root: Self.root, path: ByteString("trip/deep")) == 3)
    }

    /// A folder's moved-out half carries the directory its watch was set on, so that
    /// the crawler tells the same folder moved straight back from another in its place.
    @Test func aFolderMovedOutCarriesTheIdentityOfItsWatch() {
        var t = Self.translator()
        let key = WatchTable.DirectoryKey(device: 7, inode: 42)
        t.table.insert(wd: 4, root: Self.root, path: ByteString("trip"), directory: key)
        #expect(t.translate(Self.event(1, IN_MOVED_FROM | IN_ISDIR, "trip", cookie: 11), now: 0)
            == Self.hint(.movedFrom(ByteString("trip"), cookie: 11, isDirectory: true, identity: key)))
        // A file's half, or a folder whose watch knows no directory, carries none.
        #expect(t.translate(Self.event(1, IN_MOVED_FROM | IN_ISDIR, "album", cookie: 12), now: 0)
            == Self.hint(.movedFrom(ByteString("album"), cookie: 12, isDirectory: true, identity: nil)))
    }

    @Test func fileRenamesAndRenamesOutLeaveTheTableAlone() {
        var t = Self.translator()
        #expect(t.translate(Self.event(2, IN_MOVED_FROM, "a.jpg", cookie: 4), now: 0)
            == Self.hint(.movedFrom(ByteString("album/a.jpg"), cookie: 4, isDirectory: false)))
        #expect(t.translate(Self.event(1, IN_MOVED_TO, "b.jpg", cookie: 4), now: 0)
            == Self.hint(.movedTo(ByteString("b.jpg"), cookie: 4, isDirectory: false)))
        // A folder moved out: its MOVED_TO never comes; the crawler decides when to give up.
        _ = t.translate(Self.event(1, IN_MOVED_FROM | IN_ISDIR, "album", cookie: 5), now: 0)
        #expect(t.table.wd(root: Self.root, path: ByteString("album/deep")) == 3)
        // A folder coming from another root is that root's to scan: the table is not re-keyed.
        var two = Self.translator()
        two.table.insert(wd: 10, root: 4, path: .empty)
        _ = two.translate(Self.event(1, IN_MOVED_FROM | IN_ISDIR, "album", cookie: 6), now: 0)
        #expect(two.translate(Self.event(10, IN_MOVED_TO | IN_ISDIR, "album", cookie: 6), now: 0)
            == .hint(Hint(root: 4, kind: .movedTo(ByteString("album"), cookie: 6, isDirectory: true))))
        #expect(two.table.entry(2) == WatchTable.Entry(rootID: Self.root, path: ByteString("album")))
    }
}
