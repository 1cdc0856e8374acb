// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import CuratorProtocol
import FoundationEssentials
import Testing

/// Lines from the daemon told apart by their first bytes, as the daemon writes them.
@Suite struct LineKindTests {
    func kind(_ text: String) -> LineKind { LineKind(ArraySlice(text.utf8)) }

    @Test func answersEventsAndTheRest() {
        #expect(kind(#"{"id":12,"ok":true,"result":{}}"#) == .answer(12))
        #expect(kind(#"{"event":"added","root":"pics"}"#) == .event)
        #expect(kind(#"{"ok":false,"error":{"code":"shutting_down","message":"bye"}}"#) == .other)
        // Not the daemon's own shape: decoded whole by the caller.
        #expect(kind(#"{"id":"a","ok":true}"#) == .other)
        #expect(kind(#"{"id":1.5,"ok":true}"#) == .other)
        #expect(kind(#"{"id":12"#) == .other)
        #expect(kind(#"{"id":1234567890123456789012,"ok":true}"#) == .other)
        #expect(kind(#" {"id":3,"ok":true}"#) == .other)
    }

    /// What the daemon writes (`Wire.success`) is read as its answer: the two agree
    /// on the key order.
    @Test func theDaemonsOwnAnswerLineIsAnAnswer() {
        let line = Wire.success(id: .number(77), result: SubscribeResult())
        #expect(LineKind(ArraySlice(Array(line))) == .answer(77))
        let event = Wire.event(Event(event: .online, root: "pics"))
        #expect(LineKind(ArraySlice(Array(event))) == .event)
    }
}

/// The first page seeds the grid before the whole shape comes.
@Suite struct ViewDataSeedTests {
    @Test func aFirstPageIsIncompleteUntilTheShapeComes() throws {
        let photos = (1...3).map { PhotoSummary(position: $0, id: Int64(100 + $0), root: "pics", path: "a/\($0).jpg", size: 1, mtimeNs: 0, type: "jpeg") }
        let page = ListResult(total: 1000, offset: 0, photos: photos,
                              folders: [FolderSection(root: "pics", path: "a", count: 3, total: 600, firstPosition: 1)], view: ViewSpec())
        var data = ViewData()
        data.seed(with: page)
        #expect(!data.isComplete && data.total == 1000 && data.id(at: 3) == 103 && data.id(at: 4) == nil)
        #expect(data.photo(at: 2)?.path == "a/2.jpg" && data.runs.count == 1)
        let line = #"{"id":1,"ok":true,"result":{"folders":[{"count":1000,"first_position":1,"path":"a","root":"pics","total":1000}],"offset":0,"photos":["#
            + (1...1000).map { #"{"id":\#(100 + $0)}"# }.joined(separator: ",") + #"],"total":1000,"view":{}}}"#
        let shape = try ShapeListing.read(Array(line.utf8)).get()
        data.replaceShape(with: shape)
        #expect(data.isComplete && data.total == 1000 && data.id(at: 1000) == 1100)
        // The first page's details stay.
        #expect(data.photo(at: 2)?.path == "a/2.jpg")
    }

    @Test func aSmallViewIsCompleteFromItsFirstPage() {
        let photos = [PhotoSummary(position: 1, id: 5, root: "pics", path: "x.jpg", size: 1, mtimeNs: 0, type: "jpeg")]
        var data = ViewData()
        data.seed(with: ListResult(total: 1, offset: 0, photos: photos,
                                   folders: [FolderSection(root: "pics", path: "", count: 1, total: 1, firstPosition: 1)], view: ViewSpec()))
        #expect(data.isComplete)
    }
}
