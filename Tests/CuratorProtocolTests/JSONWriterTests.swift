// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Foundation
import Testing

/// The hand-written listing encoder must say exactly what the Codable one says.
struct JSONWriterTests {
    static let photos = [
        PhotoSummary(position: 1, id: 42, root: "pics", path: "2024/05 beach/IMG_0001.JPG", size: 2_483_021,
                     mtimeNs: 1_715_000_000_123_456_789, type: "jpeg", captureTime: "2024-05-01T10:12:44"),
        PhotoSummary(position: 2, id: -7, root: "pics", path: "quote\" back\\slash\nnew\ttab\u{01}/Été à Nice.jpg",
                     pathRaw: "cXVvdGU=", size: 0, mtimeNs: -1, type: "nef", protected: true, offline: true, selected: 3),
        PhotoSummary(position: nil, id: Int64.max, root: "r", path: "", size: Int64.max, mtimeNs: Int64.min + 1, type: "mov"),
    ]

    static let result = ListResult(total: 3, offset: 0, photos: photos,
                                   folders: [FolderSection(root: "pics", path: "2024/05 beach", count: 1, firstPosition: 1),
                                             FolderSection(root: "pics", path: "x", pathRaw: "eA==", count: 2, firstPosition: 2)],
                                   view: ViewSpec(root: "pics", sort: .capture))

    @Test func listingBytesEqualTheCodableEncoding() throws {
        let view = [UInt8](try Wire.makeEncoder().encode(Self.result.view))
        let fast = Wire.listSuccess(id: .number(9), result: Self.result, view: view)
        let codable = [UInt8](Wire.success(id: .number(9), result: Self.result))
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: codable, as: UTF8.self))
    }

    @Test func listingDecodesBackToTheSameValues() throws {
        let view = [UInt8](try Wire.makeEncoder().encode(Self.result.view))
        let fast = Wire.listSuccess(id: .string("a\"b"), result: Self.result, view: view)
        let decoded = try Wire.makeDecoder().decode(Response<ListResult>.self, from: Data(fast.dropLast()))
        #expect(decoded.id == .string("a\"b"))
        #expect(decoded.ok)
        let result = try #require(decoded.result)
        #expect(result.photos == Self.photos)
        #expect(result.folders == Self.result.folders)
        #expect(result.view == Self.result.view)
        #expect(fast.last == UInt8(ascii: "\n"))
        #expect(!fast.dropLast().contains(UInt8(ascii: "\n")))
    }

    @Test func integersAtTheEdges() throws {
        for value: Int64 in [0, 1, -1, 9, 10, 99, 100, Int64.max, Int64.min, -1_000_000_007] {
            var w = JSONWriter()
            w.int(value)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(value))
        }
    }
}

/// The batch answers (one entry per photo) are written by hand too, and must say
/// exactly what the Codable encoder says.
struct BatchJSONWriterTests {
    static let items = [
        BatchItemResult(step: 1, id: 42, root: "pics", path: "2024/05/IMG_0001.JPG", size: 2_483_021, outcome: .trashed),
        BatchItemResult(step: 2, id: -7, root: "p\"q", path: "quote\" back\\slash\n/Été.jpg", pathRaw: "cXVvdGU=", size: 0,
                        outcome: .error, detail: "EACCES"),
    ]

    static func codable(_ value: some Encodable) throws -> String {
        String(decoding: try Wire.makeEncoder().encode(value), as: UTF8.self)
    }

    static func written(_ value: some JSONWritable) -> String {
        var w = JSONWriter()
        value.write(to: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func batchAndUndoResultsEqualTheCodableEncoding() throws {
        let batch = BatchResult(batch: 3, state: .done, items: Self.items, trashed: 1, skipped: 1, bytes: 2_483_021)
        #expect(Self.written(batch) == (try Self.codable(batch)))
        let undo = UndoResult(batch: 3, state: .partlyUndone, items: Self.items, restored: 1, conflicts: 0, missing: 1)
        #expect(Self.written(undo) == (try Self.codable(undo)))
    }

    @Test func deletePlansEqualTheCodableEncoding() throws {
        let plan = DeletePlanResult(token: "abc", expiresInMs: 60_000, items: [
            PlanItem(step: 1, id: 5, root: "pics", path: "a/b.jpg", size: 10, position: 7),
            PlanItem(step: 2, id: 6, root: "pics", path: "\u{01}", pathRaw: "AQ==", size: 0, position: nil),
        ], count: 2, bytes: 10)
        #expect(Self.written(plan) == (try Self.codable(plan)))
    }

    @Test func successLinesMatchWithEitherId() throws {
        let batch = BatchResult(batch: 1, state: .done, items: Self.items, trashed: 1, skipped: 1, bytes: 1)
        for id in [RequestID.number(9), .string("x\"y"), nil] {
            let line = Wire.success(id: id, result: batch)
            let decoded = try Wire.makeDecoder().decode(Response<BatchResult>.self, from: line.dropLast())
            #expect(decoded.id == id)
            #expect(decoded.ok)
            #expect(decoded.result?.items == Self.items)
        }
    }
}
