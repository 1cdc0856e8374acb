// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Testing

/// A selection is a set of identities; the view only shows them (article 001).
/// Photos a filter hides stay selected, are counted, and are deleted after the
/// photos shown.
@Suite struct SelectionAcrossViewsTests {
    static let me = ListingTests.me
    static let page = ViewSpec(root: "pics", folder: "a", sort: .name)

    /// a/1.jpg ... a/5.jpg and b/x.jpg; the default session views folder a and
    /// selects a/2, a/5, a/1, a/4, a/3 in that order, then b/x by id.
    static func fixture() throws -> (f: ReconcileTests.Fixture, id: [String: Int64]) {
        let f = try ReconcileTests.Fixture()
        let names = ["1.jpg", "2.jpg", "3.jpg", "4.jpg", "5.jpg"]
        for name in names { try f.write("a/" + name) }
        try f.write("b/x.jpg")
        try f.reconcile("a", names)
        try f.reconcile("b", ["x.jpg"])
        var id: [String: Int64] = [:]
        for path in names.map({ "a/" + $0 }) + ["b/x.jpg"] {
            let photo: Int64 = try #require(f.id(path))
            id[path] = photo
        }
        _ = try ViewCommand.run(in: f.state, ViewRequest(view: page), caller: Caller(uid: me.uid))
        _ = try ModeCommand.run(in: f.state, ModeRequest(mode: .select), caller: Caller(uid: me.uid))
        _ = try SelectionVerb.select.run(in: f.state, SelectRequest(selector: PhotoSelector(positions: "2 5 1 4 3")), caller: Caller(uid: me.uid))
        _ = try SelectionVerb.select.run(in: f.state, SelectRequest(selector: PhotoSelector(ids: [try #require(id["b/x.jpg"])])), caller: Caller(uid: me.uid))
        return (f, id)
    }

    static func filtered(_ glob: String, order: CuratorProtocol.SortOrder? = nil) -> ViewRequest {
        var view = page
        view.filter = ViewFilter(glob: glob)
        view.order = order
        return ViewRequest(view: view)
    }

    @Test func aFilterHidesSelectedPhotosWithoutDeselectingThem() throws {
        let (f, id) = try Self.fixture()
        #expect(try SelectionCommand.run(in: f.state, SelectionRequest(), caller: Caller(uid: Self.me.uid)).hidden == 1, "b/x lies outside the folder")
        let result = try ViewCommand.run(in: f.state, Self.filtered("[45].jpg"), caller: Caller(uid: Self.me.uid))
        #expect(result.mode == SessionMode.select)
        #expect(result.count == 6)
        #expect(result.hidden == 4)
        #expect(result.removed == 0)
        let selection = try SelectionCommand.run(in: f.state, SelectionRequest(), caller: Caller(uid: Self.me.uid))
        #expect(selection.items.map(\.path) == ["a/2.jpg", "a/5.jpg", "a/1.jpg", "a/4.jpg", "a/3.jpg", "b/x.jpg"])
        #expect(selection.items.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(selection.items.map { $0.hidden == true } == [true, false, true, false, true, true])
        // `all` names what the view shows: deselecting it leaves the hidden ones.
        let deselected = try SelectionVerb.deselect.run(in: f.state, SelectRequest(selector: PhotoSelector(all: true)), caller: Caller(uid: Self.me.uid))
        #expect(deselected.removed == 2)
        #expect(try SelectionCommand.run(in: f.state, SelectionRequest(), caller: Caller(uid: Self.me.uid)).items.map(\.id)
                == ["a/2.jpg", "a/1.jpg", "a/3.jpg", "b/x.jpg"].compactMap { id[$0] })
    }

    /// Delete order: the photos shown, by descending position; then those the filter
    /// hides, by descending position in the page without the filter; then photos
    /// outside the page, newest id first.
    @Test func aPlanTrashesThePhotosShownFirstThenTheHiddenOnes() throws {
        let (f, _) = try Self.fixture()
        _ = try ViewCommand.run(in: f.state, Self.filtered("[24].jpg"), caller: Caller(uid: Self.me.uid))
        let plan = try DeletePrepareCommand.run(in: f.state, DeletePrepareRequest(), caller: Caller(uid: Self.me.uid))
        #expect(plan.items.map(\.path) == ["a/4.jpg", "a/2.jpg", "a/5.jpg", "a/3.jpg", "a/1.jpg", "b/x.jpg"])
        #expect(plan.items.map(\.position) == [2, 1, nil, nil, nil, nil])
        #expect(plan.count == 6)
        // Sorted the other way, the visible and the hidden ones follow that sort.
        _ = try ViewCommand.run(in: f.state, Self.filtered("[24].jpg", order: .desc), caller: Caller(uid: Self.me.uid))
        let reversed = try DeletePrepareCommand.run(in: f.state, DeletePrepareRequest(), caller: Caller(uid: Self.me.uid))
        #expect(reversed.items.map(\.path) == ["a/2.jpg", "a/4.jpg", "a/1.jpg", "a/3.jpg", "a/5.jpg", "b/x.jpg"])
    }

    @Test func anotherFolderStillResetsTheSession() throws {
        let (f, _) = try Self.fixture()
        let result = try ViewCommand.run(in: f.state, ViewRequest(view: ViewSpec(root: "pics", folder: "b")), caller: Caller(uid: Self.me.uid))
        #expect(result.mode == .view)
        #expect(result.count == 0)
        #expect(result.removed == 6)
    }
}
