// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Testing

/// A view by name places photos from per-folder counts of listed photos
/// (`ViewPositions`), without the whole view resolved: every position must be the
/// one the whole view gives, with groups (one position each), orphan sidecars
/// (listed by no view without the orphans filter) and after the folders' groups
/// change and the index is loaded again.
struct ViewPositionsTests {
    /// Checks `spec` (by name, no filter) for every photo of its view and for a few.
    static func expectSamePositions(_ state: CuratorState, _ spec: ViewSpec, _ comment: Comment) throws {
        let view = try state.resolveView(spec, uid: 0)
        let table = state.library.photos
        var every: [Int64: Photo] = [:]
        for id in view.ids(in: table) { every[id] = state.library.listed(id) }
        #expect(every.count == view.count && view.count > 0, comment)
        let scope = try ViewMembership(spec, roots: state.roots)
        let (folders, paths) = try state.viewFolders(scope, uid: nil)
        for asked in [every, every.filter { $0.key % 3 == 0 }] {
            let whole = CuratorState.positions(of: asked, in: view, table: table)
            #expect(whole.count == asked.count, comment)
            let byName = state.positionsByName(of: asked, folders: folders, paths: paths, descending: spec.order == .desc)
            #expect(byName == whole, comment)
        }
    }

    /// Selecting by positions from per-folder counts names the photos the whole view
    /// has there, in the order typed; one past the end is refused the same way.
    static func expectSameSelections(_ state: CuratorState, _ spec: ViewSpec, _ comment: Comment) throws {
        let whole = try state.resolve(spec, uid: 0)
        let n = whole.count
        #expect(n > 2, comment)
        for text in ["1", "\(n)", "3 1 2", "1-\(n)", "\(n)-1", "2 \(n) 2"] {
            let positions = try PositionSpec(parsing: text)
            state.viewCache.invalidate()
            let byName = try #require(try state.photosByName(at: text, inView: spec, uid: 0), comment)
            #expect(byName == (try positions.resolve(in: whole)), "\(comment): \(text)")
        }
        state.viewCache.invalidate()
        #expect(throws: ProtocolError.self, comment) { try state.photosByName(at: "1 \(n + 1)", inView: spec, uid: 0) }
        // A cached view answers itself.
        _ = try state.resolveView(spec, uid: 0)
        #expect(try state.photosByName(at: "1", inView: spec, uid: 0) == nil, comment)
        #expect(try state.photosByName(at: "1", inView: ViewSpec(sort: .size), uid: 0) == nil, comment)
    }

    /// Per folder, the library's count of listed rows is the rows it lists.
    static func expectCountsMatchRows(_ library: PhotoLibrary, _ comment: Comment) {
        var counted: [Int32: Int] = [:]
        for row in library.photos.rows where library.photos.row(row.id) != nil && row.role == .shown {
            counted[row.folderID, default: 0] += 1
        }
        #expect(library.listedByFolder == counted, comment)
    }

    static func specs() -> [ViewSpec] {
        [ViewSpec(), ViewSpec(sort: .name, order: .desc), ViewSpec(folder: "a"), ViewSpec(folder: "a", recursive: false),
         ViewSpec(folder: "a", order: .desc)]
    }

    @Test func positionsByFolderCountsAreTheWholeViews() throws {
        let f = try ReconcileTests.Fixture(groups: true)
        let tree: [String: [String]] = [
            "": ["top.jpg", "IMG_0009.JPG", "IMG_0009.CR2"],
            "a": ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0002.JPG", "IMG_0003.CR2", "IMG_0003.CR2.xmp",
                  "orphan.xmp", "IMG_0004.JPG", "IMG_0004.HEIC", "IMG_0005.HEIC", "IMG_0005.MOV", "z.png"],
            "a/x": ["b.jpg", "a.jpg", "A.JPG", "a.nef"],
            "a b": ["one.jpg"],
            "b": ["PXL_1.jpg", "PXL_1.dng", "PXL_2.jpg"],
            "Z": ["last.tif", "last.xmp"],
        ]
        for (folder, names) in tree {
            for name in names { try f.write(folder.isEmpty ? name : folder + "/" + name) }
        }
        for folder in tree.keys.sorted().reversed() { try f.reconcile(folder, tree[folder] ?? []) }
        let groups = f.state.library.photos.rows.filter { $0.role == .member || $0.role == .sidecar }.count
        #expect(groups == 7, "the tree has groups: 4 members, 3 sidecars")
        #expect(f.state.library.photos.rows.contains { $0.role == .orphan })
        Self.expectCountsMatchRows(f.state.library, "first scan")
        for spec in Self.specs() { try Self.expectSamePositions(f.state, spec, "first scan \(spec)") }
        for spec in Self.specs() { try Self.expectSameSelections(f.state, spec, "first scan \(spec)") }
        // A request wrong in its view and its positions is answered with the view's
        // error, by counts and by the whole view alike.
        for view in [ViewSpec(folder: "nope"), ViewSpec(folder: "nope", sort: .size)] {
            f.state.viewCache.invalidate()
            do {
                _ = try f.state.resolveSelector(PhotoSelector(positions: "x-"), view: view, uid: 0)
                Issue.record("\(view): no error")
            } catch {
                #expect(error.code == .noSuchFolder, "\(view): \(error)")
            }
        }

        // The groups change: a pair loses its JPEG (the RAW is shown), a single
        // photo gains a RAW, a sidecar's image goes, a folder goes.
        try f.reconcile("a", ["IMG_0001.CR2", "IMG_0001.xmp", "IMG_0002.JPG", "IMG_0003.CR2.xmp", "orphan.xmp",
                              "IMG_0004.JPG", "IMG_0004.HEIC", "IMG_0005.HEIC", "IMG_0005.MOV", "z.png"])
        try f.write("b/PXL_2.dng")
        try f.reconcile("b", ["PXL_1.jpg", "PXL_1.dng", "PXL_2.jpg", "PXL_2.dng"])
        try f.reconcile("a b", [])
        Self.expectCountsMatchRows(f.state.library, "after changes")
        for spec in Self.specs() { try Self.expectSamePositions(f.state, spec, "after changes \(spec)") }

        // Loaded from the store, as a restart does.
        try f.restart()
        Self.expectCountsMatchRows(f.state.library, "loaded")
        for spec in Self.specs() { try Self.expectSamePositions(f.state, spec, "loaded \(spec)") }
        for spec in Self.specs() { try Self.expectSameSelections(f.state, spec, "loaded \(spec)") }
    }

    /// `positions(of:inView:)` after a change (no cached view): the way by counts,
    /// and the same answer as the view resolved afterwards.
    @Test func aPrepareAfterAChangeNeedsNoWholeView() throws {
        let f = try ReconcileTests.Fixture(groups: true)
        for name in ["c.jpg", "a.jpg", "a.cr2", "b.jpg"] { try f.write("d/" + name) }
        try f.reconcile("d", ["c.jpg", "a.jpg", "a.cr2", "b.jpg"])
        try f.write("e/only.jpg")
        try f.reconcile("e", ["only.jpg"])
        let library = f.state.library
        var listed: [Int64: Photo] = [:]
        for path in ["d/a.jpg", "d/c.jpg", "e/only.jpg"] {
            let id = try #require(f.id(path))
            listed[id] = library.listed(id)
        }
        #expect(listed.count == 3)
        let spec = ViewSpec(order: .desc)
        let positions = try f.state.positions(of: listed, inView: spec, uid: 0)
        #expect(f.state.viewCache.count == 0, "no view was resolved for it")
        let view = try f.state.resolveView(spec, uid: 0)
        #expect(positions == CuratorState.positions(of: listed, in: view, table: library.photos))
        // e/only.jpg, d/c.jpg, d/b.jpg, d/a.jpg (+ a.cr2)
        #expect(positions[try #require(f.id("e/only.jpg"))] == 1)
        #expect(positions[try #require(f.id("d/c.jpg"))] == 2)
        #expect(positions[try #require(f.id("d/a.jpg"))] == 4)
    }
}
