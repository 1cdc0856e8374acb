// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorProtocol
import Foundation
import Testing

/// The hand-written listing writer must say exactly what the Codable encoder says.
struct JSONWriterTests {
    static let folders = [FolderSection(root: "pics", path: "2024/05 beach", count: 1, total: 3, firstPosition: 1),
                          FolderSection(root: "pics", path: "x", pathRaw: "eA==", count: 2, total: 2, firstPosition: 2)]
    static let view = ViewSpec(root: "pics", sort: .capture)
    static let awkward = ["", "plain", "quote\" back\\slash\nnew\ttab\u{01}\u{1F}\u{08}\u{0C}\r/Été à Nice.jpg", "日本/写真.heic"]

    /// The envelope and the folder sections, with photos whose single key is
    /// written through each of the string forms the listing uses.
    @Test func listingLineEqualsTheCodableEncoding() throws {
        struct Named: Codable, Equatable { var path: String }
        struct Result: Codable { var files: Int; var folders: [FolderSection]; var offset: Int; var photos: [Named]; var total: Int; var view: ViewSpec }
        let encodedView = [UInt8](try Wire.makeEncoder().encode(Self.view))
        for id in [RequestID.number(9), .string("a\"b"), nil] {
            // A capacity of 40 makes the writer grow early on.
            var w = JSONWriter(reservingCapacity: id == nil ? 40 : 4096)
            ListingLine.writeOpening(id: id, files: 12, to: &w)
            for folder in Self.folders { folder.write(to: &w) }
            ListingLine.writeMiddle(offset: 4, to: &w)
            do {
                for (i, text) in Self.awkward.enumerated() {
                    w.beginObject()
                    w.key("path")
                    switch i % 3 {
                    case 0: w.string(text)
                    case 1: w.string(escaped: JSONWriter.escaped(text.utf8))
                    default:
                        let cut = text.utf8.count / 2
                        let head = Array(text.utf8.prefix(cut)), tail = Array(text.utf8.dropFirst(cut))
                        // A cut inside a multi-byte character is fine: escaping works on bytes.
                        let prefix = JSONWriter.escaped(head)
                        prefix.withUnsafeBufferPointer { p in tail.withUnsafeBufferPointer { w.string(escapedPrefix: p, $0) } }
                    }
                    w.endObject()
                }
            }
            ListingLine.writeClosing(total: 11, view: encodedView, to: &w)
            let fast = w.bytes
            let codable = [UInt8](Wire.success(id: id, result: Result(files: 12, folders: Self.folders, offset: 4,
                                                                        photos: Self.awkward.map(Named.init), total: 11, view: Self.view)))
            #expect(String(decoding: fast, as: UTF8.self) == String(decoding: codable, as: UTF8.self))
            #expect(fast.last == UInt8(ascii: "\n"))
            #expect(!fast.dropLast().contains(UInt8(ascii: "\n")))
        }
    }

    /// What is sent and removed between pieces leaves the place in the JSON as it was.
    @Test func removingWhatWasSentKeepsTheSeparators() {
        var whole = JSONWriter()
        var pieces = JSONWriter(reservingCapacity: 64)
        var sent: [UInt8] = []
        for w in [0, 1] {
            func write(_ w: inout JSONWriter, _ step: Int) {
                switch step {
                case 0: w.beginArray()
                case 1...3: w.int(step)
                case 4: w.beginObject(); w.key("ok"); w.bool(true)
                case 5: w.endObject()
                case 6: w.string("x")
                default: w.endArray()
                }
            }
            for step in 0...7 {
                if w == 0 {
                    write(&whole, step)
                } else {
                    write(&pieces, step)
                    sent += pieces.bytes
                    pieces.removeAll()
                    #expect(pieces.written == 0)
                }
            }
        }
        #expect(String(decoding: sent, as: UTF8.self) == "[1,2,3,{\"ok\":true},\"x\"]")
        #expect(sent == whole.bytes)
    }

    @Test func plainStringsAreWrittenAsGiven() {
        var w = JSONWriter()
        let date = Array("2024-05-01T10:12:44".utf8)
        w.plainString(maxCount: 19) { out in
            for (i, byte) in date.enumerated() { out[i] = byte }
            return date.count
        }
        #expect(String(decoding: w.bytes, as: UTF8.self) == "\"2024-05-01T10:12:44\"")
    }

    /// The digit count from the bit length, at every edge where it could be one
    /// off: each power of ten and of two, and one either side.
    @Test func integersAtEveryPowerOfTenAndTwo() throws {
        var edges: [UInt64] = [0, UInt64.max, UInt64.max - 1]
        var ten: UInt64 = 1
        for _ in 0..<20 {
            edges += [ten - 1, ten, ten + 1]
            ten = ten &* 10
        }
        for bit in 0..<64 { edges += [(1 << bit) - 1, 1 << bit, (1 << bit) + 1] }
        for edge in edges {
            #expect(JSONWriter.decimalDigits(edge) == String(edge).count, "\(edge)")
            guard let value = Int64(exactly: edge) else { continue }
            for signed in [value, -value] {
                var w = JSONWriter()
                w.int(signed)
                #expect(String(decoding: w.bytes, as: UTF8.self) == String(signed))
            }
        }
    }

    /// Numbers of every length, both signs: each is written as Swift prints it.
    @Test func randomIntegersOfEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50_000 {
            let bits = Int.random(in: 0...63, using: &generator)
            let magnitude = Int64(truncatingIfNeeded: (UInt64.random(in: 0...UInt64.max, using: &generator) >> (63 - bits)) >> 1)
            for value in [magnitude, -magnitude] {
                var w = JSONWriter()
                w.int(value)
                #expect(String(decoding: w.bytes, as: UTF8.self) == String(value), "\(value)")
            }
        }
    }

    @Test func integersAtTheEdges() throws {
        for value: Int64 in [0, 1, -1, 9, 10, 11, 99, 100, 101, 999, 1000, 12_345, 100_000, 1_715_000_000_123_456_789, Int64.max, Int64.min, -1_000_000_007] {
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
            // A group's step names every file it trashes by its path.
            PlanItem(step: 3, id: 8, root: "pics", path: "d/IMG_1.JPG", size: 30, position: 2,
                     files: [PlanFile(kind: "rendered", path: "d/IMG_1.JPG", size: 10, type: "jpeg"),
                             PlanFile(kind: "sidecar", path: "d/\u{FFFD}.xmp", pathRaw: "ZP8ueG1w", size: 20, type: "xmp")]),
            // An orphaned sidecar says so.
            PlanItem(step: 4, id: 9, root: "pics", path: "d/IMG_2.xmp", size: 7, position: 1, orphan: true),
        ], count: 4, bytes: 47)
        #expect(Self.written(plan) == (try Self.codable(plan)))
        let counted = DeletePlanResult(token: "abc", expiresInMs: 1, items: [], count: 4, bytes: 47, files: 9, photos: 4)
        #expect(Self.written(counted) == (try Self.codable(counted)))
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
