// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Testing

/// The name order of a view is built from each folder's entries (kept sorted by
/// the library) rather than by sorting every photo: it must be the order a sort
/// gives, folder path first, then file name, as file managers show them
/// (`NaturalOrder`).
struct ViewOrderTests {
    @Test func nameOrderIsFolderPathThenNameAsFileManagersShowThem() throws {
        let f = try ReconcileTests.Fixture()
        var generator = SystemRandomNumberGenerator()
        let folders = ["", "a", "a/x", "b", "a b", "Z", "é", "2024/05-mai"]
        var written: [String: [String]] = [:]
        let stems = ["IMG_", "img_", "DSC ", "Été ", "z", "A", "_", "10", "9"]
        for folder in folders {
            var names = Set<String>()
            while names.count < 25 {
                let stem = stems[Int.random(in: 0..<stems.count, using: &generator)]
                let ext = ["jpg", "JPG", "heic", "nef"][Int.random(in: 0..<4, using: &generator)]
                names.insert("\(stem)\(Int.random(in: 0..<500, using: &generator)).\(ext)")
            }
            for name in names { try f.write(folder.isEmpty ? name : folder + "/" + name) }
            written[folder] = Array(names)
        }
        // Indexed in an order unrelated to names or folders.
        for folder in folders.shuffled(using: &generator) { try f.reconcile(folder, written[folder, default: []].shuffled(using: &generator)) }

        let photos = f.state.library.photos.values
        func folderPath(_ photo: Photo) -> ByteString { f.state.library.folders[photo.folderID]?.path ?? .empty }
        // As file managers show them (issue 48, 17): numbers by value, letters without case.
        let expected = photos.sorted { a, b in
            folderPath(a) != folderPath(b) ? NaturalOrder.compare(folderPath(a), folderPath(b)) < 0
                : NaturalOrder.compare(a.name, b.name) < 0
        }.map(\.id)
        #expect(expected.count == folders.count * 25)
        #expect(Array(try f.state.resolve(ViewSpec(), uid: 0)) == expected)
        #expect(Array(try f.state.resolve(ViewSpec(sort: .name, order: .desc), uid: 0)) == expected.reversed())

        // A filter keeps the order of what it keeps.
        let kept = Set(photos.filter { $0.name.lossyString.hasPrefix("IMG_") }.map(\.id))
        #expect(!kept.isEmpty && kept.count < photos.count)
        #expect(Array(try f.state.resolve(ViewSpec(filter: ViewFilter(glob: "IMG_*")), uid: 0)) == expected.filter { kept.contains($0) })
        // A folder view: its photos and those below it, in the same order.
        let underA = Set(photos.filter { folderPath($0).isWithin(ByteString("a")) }.map(\.id))
        #expect(Array(try f.state.resolve(ViewSpec(folder: "a"), uid: 0)) == expected.filter { underA.contains($0) })
    }

    /// Capture times arriving in the background (a cold start reads them for minutes at
    /// a million photos) leave the cached views that do not hang on them: a select by
    /// position is then not a re-sort of the whole library each time.
    @Test func captureTimesKeepACachedViewByNameAndDropOneByCapture() throws {
        let f = try ReconcileTests.Fixture()
        for name in ["c.jpg", "a.jpg", "b.jpg"] { try f.write(name) }
        try f.reconcile("", ["c.jpg", "a.jpg", "b.jpg"])
        let byName = ViewSpec(sort: .name)
        let byCapture = ViewSpec(sort: .capture)
        _ = try f.state.resolveView(byName, uid: 0)
        _ = try f.state.resolveView(byCapture, uid: 0)
        #expect(f.state.viewCache.count == 2)
        let pending = f.state.library.photos.values.filter { $0.capture == .pending }.map(\.id)
        #expect(pending.count == 3)
        f.state.applyCaptureTimes(pending.enumerated().map { CaptureResult(id: $1, state: .known(Int64(1_700_000_000 - $0)), detail: .none) })
        #expect(f.state.library.photos.values.allSatisfy { $0.capture != .pending })
        let generation = f.state.library.generation
        #expect(f.state.viewCache.lookup(byName, generation: generation) != nil, "the view by name is still cached")
        #expect(f.state.viewCache.lookup(byCapture, generation: generation) == nil, "the view by capture time is not")
        // And what a view by capture time shows is the new order.
        #expect(Array(try f.state.resolve(byCapture, uid: 0)) == pending.reversed())
    }
}
