// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Testing

/// When photos leave selections without a request on them: moved into a protected
/// folder, protected by a new configuration, or gone with their root's old path.
@Suite struct SelectionLeavingTests {
    static let me = ListingTests.me

    static func selected(_ f: ReconcileTests.Fixture, _ session: String? = nil) throws -> [Int64] {
        f.state.session(try SessionKey.named(session, uid: me.uid)).selection.items
    }

    /// Three photos in `a`, all selected in the default session, two in "b".
    static func fixture(protected: [String]) throws -> (ReconcileTests.Fixture, [Int64]) {
        let f = try ReconcileTests.Fixture(protected: protected)
        for name in ["1.jpg", "2.jpg", "3.jpg"] { try f.write("a/" + name) }
        try f.reconcile("a", ["1.jpg", "2.jpg", "3.jpg"])
        let ids = try ["a/1.jpg", "a/2.jpg", "a/3.jpg"].map { try #require(f.id($0)) }
        _ = try ModeCommand.run(in: f.state, ModeRequest(mode: .select), caller: Caller(uid: me.uid))
        _ = try SelectionVerb.select.run(in: f.state, SelectRequest(selector: PhotoSelector(ids: ids)), caller: Caller(uid: me.uid))
        _ = try ModeCommand.run(in: f.state, ModeRequest(session: "b", mode: .select), caller: Caller(uid: me.uid))
        _ = try SelectionVerb.select.run(in: f.state, SelectRequest(session: "b", selector: PhotoSelector(ids: [ids[2], ids[1]])), caller: Caller(uid: me.uid))
        return (f, ids)
    }

    @Test func aPhotoMovedIntoAProtectedFolderLeavesEverySelection() throws {
        let (f, ids) = try Self.fixture(protected: ["keep"])
        try f.write("keep/2.jpg")
        try f.state.fileMoved(root: f.rootID, from: ByteString("a/2.jpg"), toRoot: f.rootID, to: ByteString("keep/2.jpg"),
                              file: f.scanned("keep/2.jpg"))
        #expect(f.id("keep/2.jpg") == ids[1], "still indexed, under its id")
        #expect(try Self.selected(f) == [ids[0], ids[2]])
        #expect(try Self.selected(f, "b") == [ids[2]])
        // A move between unprotected folders keeps it selected.
        try f.write("c/3.jpg")
        try f.state.fileMoved(root: f.rootID, from: ByteString("a/3.jpg"), toRoot: f.rootID, to: ByteString("c/3.jpg"),
                              file: f.scanned("c/3.jpg"))
        #expect(try Self.selected(f) == [ids[0], ids[2]])
    }

    @Test func aFolderMovedBelowAProtectedOneTakesItsPhotosOut() throws {
        let (f, ids) = try Self.fixture(protected: ["keep"])
        try f.state.folderMoved(root: f.rootID, from: ByteString("a"), to: ByteString("keep/a"))
        #expect(try Self.selected(f).isEmpty)
        #expect(try Self.selected(f, "b").isEmpty)
        #expect(f.id("keep/a/1.jpg") == ids[0])
    }

    @Test func aNewConfigurationThatProtectsTheFolderTakesItsPhotosOut() throws {
        let (f, ids) = try Self.fixture(protected: [])
        var root = f.config.roots[0]
        root.protected = ["a/2.*"]
        try f.state.registerRoots([root])
        f.state.unselectProtected()
        #expect(try Self.selected(f) == [ids[0], ids[2]])
        root.protectAll = true
        try f.state.registerRoots([root])
        f.state.unselectProtected()
        #expect(try Self.selected(f).isEmpty)
        #expect(try Self.selected(f, "b").isEmpty)
    }

    @Test func aRootGivenAnotherPathTakesItsOldPhotosOut() throws {
        let (f, _) = try Self.fixture(protected: [])
        var root = f.config.roots[0]
        root.path = ByteString(f.directory + "/elsewhere")
        try f.state.registerRoots([root])
        #expect(f.state.library.photos.count == 0)
        #expect(try Self.selected(f).isEmpty)
        #expect(try Self.selected(f, "b").isEmpty)
    }
}
