// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Foundation
import Testing

/// Event lines are written by hand; they must be exactly what the Codable encoder writes.
struct EventWriterTests {
    static let photo = PhotoSummary(position: 3, id: 42, root: "pics", path: "2024/05 beach/IMG_0001.JPG", size: 2_483_021,
                                    mtimeNs: 1_715_000_000_123_456_789, type: "jpeg", captureTime: "2024-05-01T10:12:44")
    static let awkward = PhotoSummary(id: -7, root: "r\"x", path: "quote\" back\\slash\nnew\ttab\u{01}/Été.jpg", pathRaw: "cXVvdGU=",
                                      size: 0, mtimeNs: -1, type: "nef", protected: true, offline: false, selected: 9)

    /// A group (issue 15): the shown file's kind, its other files by name (one not UTF-8), the total size.
    static let group = PhotoSummary(id: 17, root: "pics", path: "d/IMG_0001.JPG", size: 3, mtimeNs: 5, type: "jpeg", kind: "rendered",
                                    members: [GroupMemberSummary(kind: "raw", name: "IMG_0001.CR2", size: 20, type: "cr2"),
                                              GroupMemberSummary(kind: "sidecar", name: "\u{FFFD}.xmp", nameRaw: "/y54=", size: 1,
                                                                 type: "xmp")],
                                    totalSize: 24)

    /// Marks (stars, flag, label), as a `metadata` event carries them.
    static let marked: PhotoSummary = {
        var photo = group
        photo.rating = 4
        photo.flag = "reject"
        photo.label = "purple"
        return photo
    }()

    static let events: [Event] = [
        Event(event: .added, root: "pics", photo: photo),
        Event(event: .changed, root: "pics", photo: group),
        Event(event: .changed, root: "pics", photo: awkward),
        Event(event: .moved, root: "pics", photo: photo, from: WirePath(path: "old/ä.jpg", pathRaw: "b2xk")),
        Event(event: .removed, root: "pics", photoId: 42, from: WirePath(path: "2024/x.jpg")),
        Event(event: .offline, root: "usb", message: "the root's folder is gone"),
        Event(event: .scan, root: "pics", state: "done", count: 100_000),
        Event(event: .selection, session: "default",
              items: [SelectionItem(number: 1, id: 5, root: "pics", path: "a.jpg", size: 10, captureTime: "2020-01-01T00:00:00"),
                      SelectionItem(number: 2, id: 9, root: "pics", path: "b\u{7f}.jpg", pathRaw: "Yg==", size: 0)]),
        // A session's state: `cap` is written as null when there is none.
        Event(event: .selection, session: "gui", mode: .select,
              view: ViewSpec(root: "pics", folder: "2024/05", filter: ViewFilter(glob: "*.NEF", types: ["nef"]), sort: .capture, order: .desc),
              cap: .some(nil), bytes: 12_345, items: [SelectionItem(number: 1, id: 5, root: "pics", path: "a.jpg", size: 10)], count: 1),
        // Orphaned sidecars among the selected.
        Event(event: .selection, session: "o", mode: .select, view: ViewSpec(), cap: .some(nil), bytes: 7, hidden: 0, orphans: 1,
              items: [SelectionItem(number: 1, id: 6, root: "pics", path: "a.xmp", size: 7)], count: 1),
        Event(event: .selection, session: "s", mode: .view, view: ViewSpec(), cap: .some(8), bytes: 0, items: [], count: 0),
        Event(event: .batch, photoId: 7, state: "running", batch: 12, done: 512, total: 10_000, outcome: .permissionDenied),
        Event(event: .dropped, message: "events were dropped because this client read too slowly; list again"),
        Event(event: .overflow, message: "inotify queue overflow; rescanning"),
        Event(event: .online, root: "usb"),
        Event(event: .thumbnail, root: "pics", photoId: 17, state: "ready", sizes: [.normal, .large, .xLarge]),
        Event(event: .thumbnail, root: "pics", photoId: 18, state: "failed", message: "corrupt: premature end"),
        Event(event: .metadata, root: "pics", photo: marked),
    ]

    /// Whatever an event holds, it has no top-level `id`: that is how clients tell
    /// the response to a request, and a photo's id is `photo_id` (or in `photo`).
    @Test func noEventHasATopLevelID() throws {
        for kind in EventKind.allCases {
            let everything = Event(event: kind, root: "pics", photo: Self.photo, photoId: 42, from: WirePath(path: "a.jpg"),
                                   session: "default", items: [SelectionItem(number: 1, id: 5, root: "pics", path: "a.jpg", size: 1)],
                                   state: "trashing", batch: 3, done: 1, total: 2, outcome: .trashed, count: 1, message: "m")
            let object = try #require(try JSONSerialization.jsonObject(with: Wire.event(everything)) as? [String: Any])
            #expect(object["id"] == nil, "\(kind)")
            #expect(object["photo_id"] as? Int == 42)
        }
    }

    @Test func everyEventIsWrittenAsTheEncoderWouldWriteIt() throws {
        for event in Self.events {
            var codable = try Wire.makeEncoder().encode(event)
            codable.append(UInt8(ascii: "\n"))
            let written = Wire.event(event)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: codable, as: UTF8.self))
        }
        let line = String(decoding: Wire.event(Self.events[8]), as: UTF8.self)
        #expect(line.contains(#""cap":null"#) && line.contains(#""view":{"filter":{"glob":"*.NEF","types":["nef"]}"#))
    }
}
