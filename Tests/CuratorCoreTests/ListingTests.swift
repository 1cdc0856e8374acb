// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import CuratorXMP
import Foundation
import Testing

/// The listing is written straight from the photo table; it must say exactly what
/// the Codable encoder says for the same photos' summaries (the form events use).
@Suite struct ListingTests {
    static let me = PeerCredentials(pid: 1, uid: getuid(), gid: getgid())

    /// What the listing must be: summaries of the view's photos, Codable-encoded.
    static func expected(_ state: CuratorState, _ args: ListRequest, id: RequestID?, fields: PhotoFields) throws -> String {
        let session = state.session(try SessionKey.named(args.session, uid: me.uid))
        let spec = args.view ?? session.view
        let ids = try state.resolve(spec, uid: 0)
        let offset = max(args.offset ?? 0, 0)
        let end = min(ids.count, offset + (args.limit ?? ids.count))
        var photos: [PhotoSummary] = []
        var folders: [FolderSection] = []
        if offset < ids.count {
            for index in offset..<end {
                let photo = try #require(state.library.listed(ids[index]))
                if index == offset || state.library.listed(ids[index - 1])?.folderID != photo.folderID {
                    let path = state.wirePath(state.library.folders[photo.folderID]?.path ?? .empty)
                    let total = ids.filter { state.library.listed($0)?.folderID == photo.folderID }.count
                    folders.append(FolderSection(root: state.rootName(photo.rootID), path: path.path, pathRaw: path.pathRaw,
                                                 count: 0, total: total, firstPosition: index + 1))
                }
                folders[folders.count - 1].count += 1
                photos.append(state.summary(photo, position: index + 1,
                                            selected: session.selection.isEmpty ? nil : session.selection.number(of: photo.groupID),
                                            fields: fields))
            }
        }
        let files = ids.reduce(0) { $0 + max(state.library.rows(ofGroup: $1).count, 1) }
        let result = ListResult(total: ids.count, files: files, offset: offset, photos: photos, folders: folders, view: spec)
        return String(decoding: Wire.success(id: id, result: result), as: UTF8.self)
    }

    /// The line as a JSON tree, each photo reduced to the keys of `fields`.
    static func parsed(_ line: String, keeping fields: PhotoFields = .all) throws -> NSDictionary {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        guard var result = object["result"] as? [String: Any], let photos = result["photos"] as? [[String: Any]] else { return object as NSDictionary }
        let keep = Set(PhotoFields.names.filter { fields.contains($0.value) }.map(\.key))
        result["photos"] = photos.map { $0.filter { keep.contains($0.key) } }
        var whole = object
        whole["result"] = result
        return whole as NSDictionary
    }

    /// The whole `list` line, written at once from its stream.
    static func line(_ state: CuratorState, _ args: ListRequest, id: RequestID?, fields: PhotoFields = .all) throws -> [UInt8] {
        var stream = try ListCommand.stream(in: state, args, id: id, uid: me.uid, fields: fields)
        return stream.line()
    }

    static func listed(_ state: CuratorState, _ args: ListRequest, id: RequestID?, fields: PhotoFields) throws -> String {
        String(decoding: try line(state, args, id: id, fields: fields), as: UTF8.self)
    }

    @Test func everyKeyAndAwkwardNameIsWrittenAsTheEncoderWouldWriteIt() throws {
        let f = try ReconcileTests.Fixture(protected: ["keep"])
        let plain = ["IMG_0001.JPG", "quote\"d.jpg", "back\\slash.jpg", "tab\there.jpg", "Été à Nice.jpg", "写真.heic", "ctl\u{1}.png"]
        for name in plain { try f.write("2024/05 beach/" + name) }
        for name in ["a.jpg", "b.nef"] { try f.write("keep/" + name) }
        try f.write("top.jpg")
        try f.reconcile("2024/05 beach", plain)
        try f.reconcile("keep", ["a.jpg", "b.nef"])
        try f.reconcile("", ["top.jpg"])
        // A name and a folder that are not UTF-8 (path_raw), made through the index.
        let badName = ByteString([0x62, 0xFF, 0x2E, 0x6A, 0x70, 0x67])
        let badFolder = try f.state.library.ensureFolder(root: f.rootID, path: ByteString([0x64, 0xE9]))
        let ok = try f.state.library.ensureFolder(root: f.rootID, path: ByteString("2024"))
        let identity = FileIdentity(device: 1, inode: 999_001, size: 5, mtimeNs: -3)
        _ = try f.state.library.upsert(root: f.rootID, folder: ok, name: badName, identity: identity, type: .jpeg)
        _ = try f.state.library.upsert(root: f.rootID, folder: badFolder, name: ByteString("x.jpg"),
                                   identity: FileIdentity(device: 1, inode: 999_002, size: 6, mtimeNs: 7), type: .jpeg)
        // Capture times, one of them at the edge of what is written.
        let ids = f.state.library.photos.values.map(\.id).sorted()
        try f.state.library.setCapture(ids[0], .known(CaptureTime(year: 2024, month: 5, day: 1, hour: 10, minute: 2, second: 9)!.seconds))
        try f.state.library.setCapture(ids[1], .known(CaptureTime(year: 1800, month: 1, day: 1)!.seconds))
        try f.state.library.setCapture(ids[2], .none)
        // Thumbnails ready for two photos.
        f.state.thumbnails.finished(ids[0], .ready([.normal, .large]))
        f.state.thumbnails.finished(ids[3], .ready([.normal, .large, .xLarge]))
        f.state.thumbnails.finished(ids[4], .ready([.xLarge]))
        // A selection, numbered out of id order.
        _ = try ModeCommand.run(in: f.state, ModeRequest(mode: .select), caller: Caller(uid: Self.me.uid))
        _ = try SelectionVerb.select.run(in: f.state, SelectRequest(selector: PhotoSelector(positions: "5 2 9")), caller: Caller(uid: Self.me.uid))

        let requests = [ListRequest(), ListRequest(offset: 3, limit: 4), ListRequest(offset: 50), ListRequest(limit: 0),
                        ListRequest(view: ViewSpec(sort: .name, order: .desc)), ListRequest(view: ViewSpec(sort: .capture))]
        let fieldSets: [PhotoFields] = [.all, [.path], [.id, .selected, .protected, .thumbnail], [.captureTime, .type, .root, .size, .mtimeNs, .position]]
        for args in requests {
            for fields in fieldSets {
                for id in [RequestID.number(3), .string("x\"y"), nil] {
                    let listed = try Self.listed(f.state, args, id: id, fields: fields)
                    let expected = try Self.expected(f.state, args, id: id, fields: fields)
                    let context: Comment = "offset \(args.offset ?? 0) limit \(args.limit ?? -1) fields \(fields.rawValue)"
                    if fields == .all {
                        #expect(listed == expected, context)
                    } else {
                        // A summary always has its non-optional keys; the listing leaves out what was not asked for.
                        #expect(try Self.parsed(listed) == Self.parsed(expected, keeping: fields), context)
                    }
                }
            }
        }
        let whole = try Self.listed(f.state, ListRequest(), id: nil, fields: .all)
        #expect(whole.contains("\"protected\":true") && whole.contains("\"selected\":3") && whole.contains("\"path_raw\":"))
        #expect(whole.components(separatedBy: "\"thumbnail\":true").count == 3, "two photos have their thumbnails")
        #expect(whole.contains("\"capture_time\":\"2024-05-01T10:02:09\"") && whole.contains("\"capture_time\":\"1800-01-01T00:00:00\""))
    }

    /// Groups (issue 15): members, total sizes, the files count, a group known by
    /// an id that is not its shown photo's, all written as the encoder writes them.
    @Test func groupsAreWrittenAsTheEncoderWouldWriteThem() throws {
        let f = try ReconcileTests.Fixture(groups: true)
        let names = ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0002.HEIC", "IMG_0002.MOV",
                     "lone.jpg", "gone.xmp", "b\u{FF}.jpg"]
        for name in names { try f.write("d/" + name) }
        try f.reconcile("d", names)
        // The JPEG gone: the group stays, shown by its RAW under the JPEG's id.
        let jpeg = try #require(f.id("d/IMG_0001.JPG"))
        try f.reconcile("d", names.filter { $0 != "IMG_0001.JPG" })
        #expect(f.state.library.listed(jpeg)?.name == "IMG_0001.CR2")
        let raw = try #require(f.state.library.listed(jpeg))
        try f.state.library.setCapture(raw.id, .known(CaptureTime(year: 2024, month: 5, day: 1)!.seconds))
        // Marks on the group and on a photo alone (as a `rate` leaves them).
        f.state.noteRated(PhotoMarks(rating: 4, flag: .reject, label: .green), ofGroup: jpeg, sidecars: [])
        f.state.noteRated(PhotoMarks(rating: 0, flag: .pick), ofGroup: try #require(f.id("d/lone.jpg")), sidecars: [])
        let requests = [ListRequest(), ListRequest(offset: 1, limit: 2), ListRequest(view: ViewSpec(sort: .size, order: .desc)),
                        ListRequest(view: ViewSpec(filter: ViewFilter(orphans: true))),
                        ListRequest(view: ViewSpec(filter: ViewFilter(glob: "*.CR2"))),
                        ListRequest(view: ViewSpec(filter: ViewFilter(flags: ["reject", "pick"]), sort: .rating))]
        for args in requests {
            for fields in [PhotoFields.all, [.members, .id], [.marks, .path]] {
                let listed = try Self.listed(f.state, args, id: .number(1), fields: fields)
                let expected = try Self.expected(f.state, args, id: .number(1), fields: fields)
                if fields == .all {
                    #expect(listed == expected)
                } else {
                    #expect(try Self.parsed(listed) == Self.parsed(expected, keeping: fields))
                }
            }
        }
        let whole = try Self.parsed(Self.listed(f.state, ListRequest(), id: nil, fields: .all))
        let result = try #require(whole["result"] as? [String: Any])
        #expect(result["total"] as? Int == 4 && result["files"] as? Int == 7, "\(result)")
        let marked = try #require((result["photos"] as? [[String: Any]])?.first { $0["id"] as? Int == Int(jpeg) })
        #expect(marked["rating"] as? Int == 4 && marked["flag"] as? String == "reject" && marked["label"] as? String == "green",
                "\(marked)")
        let picks = try Self.parsed(Self.listed(f.state, ListRequest(view: ViewSpec(filter: ViewFilter(flags: ["pick"]))), id: nil,
                                                fields: .all))
        #expect(((picks["result"] as? [String: Any])?["photos"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["d/lone.jpg"])
        let photos = try #require(result["photos"] as? [[String: Any]])
        let group = try #require(photos.first { $0["id"] as? Int == Int(jpeg) })
        #expect(group["path"] as? String == "d/IMG_0001.CR2")
        #expect(group["capture_time"] as? String == "2024-05-01T00:00:00")
        #expect(group["total_size"] as? Int == 15)
        // The shown file is the record (its kind said once), the others are named in its folder.
        #expect(group["kind"] as? String == "raw")
        let members = try #require(group["members"] as? [[String: Any]])
        #expect(members.map { $0["name"] as? String } == ["IMG_0001.CR2.xmp", "IMG_0001.xmp"])
        #expect(members.map { $0["kind"] as? String } == ["sidecar", "sidecar"])
        #expect(members.map { $0["type"] as? String } == ["xmp", "xmp"])
        #expect(members.allSatisfy { $0["path"] == nil && $0["name_raw"] == nil })
        let live = try #require(photos.first { $0["path"] as? String == "d/IMG_0002.HEIC" })
        #expect(live["kind"] as? String == "rendered")
        #expect((live["members"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["video"])
        #expect((live["members"] as? [[String: Any]])?.map { $0["name"] as? String } == ["IMG_0002.MOV"])
        let lone = try #require(photos.first { $0["path"] as? String == "d/lone.jpg" })
        #expect(lone["members"] == nil && lone["kind"] == nil && lone["total_size"] == nil)
        // The orphans filter lists the sidecar whose image is gone, as itself.
        let orphans = try Self.parsed(Self.listed(f.state, ListRequest(view: ViewSpec(filter: ViewFilter(orphans: true))), id: nil,
                                                  fields: .all))
        let orphanPhotos = try #require((orphans["result"] as? [String: Any])?["photos"] as? [[String: Any]])
        #expect(orphanPhotos.map { $0["path"] as? String } == ["d/gone.xmp"])
        // A glob finds the groups that have a file it matches.
        let cr2 = try Self.parsed(Self.listed(f.state, ListRequest(view: ViewSpec(filter: ViewFilter(glob: "*.CR2.xmp"))), id: nil,
                                              fields: [.id]))
        #expect(((cr2["result"] as? [String: Any])?["photos"] as? [[String: Any]])?.map { $0["id"] as? Int } == [Int(jpeg)])
    }

    /// A long listing tells photos alone from groups by their rows' links
    /// (`GroupLinks`); groups before and after thousands of photos alone, and
    /// pairs, are written as the encoder writes them.
    @Test func aLongListingWritesTheGroupsBeforeAndAfterManyPhotosAlone() throws {
        let f = try ReconcileTests.Fixture(groups: true)
        // Folder "a": a pair, then more photos alone than the listing looks up one by one.
        let alone = (1...2088).map { String(format: "p%05d.jpg", $0) }
        let early = ["IMG_0001.CR2", "IMG_0001.JPG", "IMG_0001.xmp"]
        for name in early + alone { try f.write("a/" + name) }
        try f.reconcile("a", early + alone)
        // Folder "b", listed after them: pairs, a Live Photo, a photo alone between them.
        let late = ["DSC_0001.JPG", "DSC_0001.NEF", "DSC_0001.NEF.xmp", "IMG_0002.HEIC", "IMG_0002.MOV", "lone.png",
                    "PXL_1.dng", "PXL_1.jpg"]
        for name in late { try f.write("b/" + name) }
        try f.reconcile("b", late)
        let jpeg = try #require(f.id("b/DSC_0001.JPG")), raw = try #require(f.id("b/DSC_0001.NEF"))
        #expect(f.state.library.listed(jpeg)?.role == .shown)
        try f.state.library.setCapture(raw, .known(CaptureTime(year: 2020, month: 2, day: 3)!.seconds))
        for args in [ListRequest(), ListRequest(view: ViewSpec(sort: .size, order: .desc)), ListRequest(offset: 5)] {
            let listed = try Self.listed(f.state, args, id: .number(9), fields: .all)
            #expect(listed == (try Self.expected(f.state, args, id: .number(9), fields: .all)))
        }
        let whole = try Self.parsed(Self.listed(f.state, ListRequest(), id: nil, fields: [.members, .path, .captureTime]))
        let photos = try #require((whole["result"] as? [String: Any])?["photos"] as? [[String: Any]])
        #expect(photos.count == alone.count + 5)
        let last = try #require(photos.first { $0["path"] as? String == "b/DSC_0001.JPG" })
        #expect(last["kind"] as? String == "rendered")
        #expect((last["members"] as? [[String: Any]])?.map { $0["name"] as? String } == ["DSC_0001.NEF", "DSC_0001.NEF.xmp"])
        #expect(last["capture_time"] as? String == "2020-02-03T00:00:00", "the group's time, from its RAW")
        #expect(photos.first { $0["path"] as? String == "b/lone.png" }?["members"] == nil)
    }

    /// A member is named, not pathed: its exact path is the record's folder (the
    /// bytes of `path_raw` when present, else `path`, up to its last `/`) and its
    /// name (`name_raw`'s bytes when present). That holds for names and folders
    /// that are not UTF-8 and at the root's top, byte for byte, and the listing
    /// is what the encoder writes for the same summaries.
    @Test func aMembersPathIsTheRecordsFolderAndItsNameExactly() throws {
        let f = try ReconcileTests.Fixture(groups: true)
        var inode: UInt64 = 990_000
        func add(_ folder: ByteString, _ names: [[UInt8]]) throws {
            let id = try f.state.library.ensureFolder(root: f.rootID, path: folder)
            for name in names {
                inode += 1
                let file = ByteString(name)
                _ = try f.state.library.upsert(root: f.rootID, folder: id, name: file,
                                               identity: FileIdentity(device: 1, inode: inode, size: Int64(name.count), mtimeNs: 1),
                                               type: PhotoType.detectFile(name: file) ?? .jpeg)
            }
        }
        // A folder that is not UTF-8, with plain names; a plain folder with names that are not; the root's top.
        try add(ByteString([0x64, 0xE9]), [Array("IMG_0005.JPG".utf8), Array("IMG_0005.NEF".utf8), Array("IMG_0005.xmp".utf8)])
        let bad: [UInt8] = [0x49, 0xFF, 0x36]
        try add(ByteString("ok"), [bad + Array(".JPG".utf8), bad + Array(".CR2".utf8), bad + Array(".CR2.xmp".utf8)])
        try add(.empty, [Array("top.jpg".utf8), Array("top.dng".utf8)])
        for fields in [PhotoFields.all, [.members, .path]] {
            let listed = try Self.listed(f.state, ListRequest(), id: .number(2), fields: fields)
            #expect(try Self.parsed(listed) == Self.parsed(try Self.expected(f.state, ListRequest(), id: .number(2), fields: fields),
                                                            keeping: fields))
        }
        let whole = try Self.parsed(Self.listed(f.state, ListRequest(), id: nil, fields: .all))
        let photos = try #require((whole["result"] as? [String: Any])?["photos"] as? [[String: Any]])
        func bytes(_ text: Any?, raw: Any?) throws -> [UInt8] {
            if let raw = raw as? String { return try #require(ByteString(base64: raw)).bytes }
            return Array(try #require(text as? String).utf8)
        }
        var groups = 0
        for photo in photos {
            guard let members = photo["members"] as? [[String: Any]] else { continue }
            groups += 1
            let path = try bytes(photo["path"], raw: photo["path_raw"])
            let folder = path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[...$0]) } ?? []
            let named = try Set(members.map { ByteString(folder + (try bytes($0["name"], raw: $0["name_raw"]))) })
            let id = try #require(photo["id"] as? Int)
            let shown = try #require(f.state.library.listed(Int64(id)))
            #expect(ByteString(path) == f.state.library.relativePath(of: shown))
            let others = f.state.library.rows(ofGroup: Int64(id)).filter { $0 != shown.id }
            let exact = try Set(others.map { f.state.library.relativePath(of: try #require(f.state.library.photos[$0])) })
            #expect(named == exact, "\(photo)")
        }
        #expect(groups == 3)
        #expect(photos.contains { ($0["members"] as? [[String: Any]])?.contains { $0["name_raw"] != nil } == true },
                "the names that are not UTF-8 come with their bytes")
    }

    /// Written a piece at a time, with pieces of any size (the connection sends
    /// each as it is written), the listing is the same line as written whole.
    @Test func aListingWrittenInPiecesIsTheSameLine() throws {
        let f = try ReconcileTests.Fixture()
        let names = (1...40).map { String(format: "IMG_%04d.JPG", $0) } + ["quote\"d.jpg", "Été.jpg"]
        for name in names { try f.write("2024/a/" + name) }
        for name in names.prefix(7) { try f.write("b/" + name) }
        try f.reconcile("2024/a", names)
        try f.reconcile("b", Array(names.prefix(7)))
        for args in [ListRequest(), ListRequest(offset: 5, limit: 9), ListRequest(limit: 0)] {
            let whole = try Self.line(f.state, args, id: .number(1))
            for size in [1, 2, 7, 64, 1000, ListingStream.pieceBytes] {
                var stream = try ListCommand.stream(in: f.state, args, id: .number(1), uid: Self.me.uid, fields: .all)
                // Pieces go into buffers in turn, as the connection's writing thread does.
                var w = JSONWriter(reservingCapacity: 64), other = JSONWriter(reservingCapacity: 64)
                var sent: [UInt8] = []
                var pieces = 0
                while !stream.isFinished {
                    if pieces % 2 == 0 {
                        stream.writeNext(to: &w, bytes: size)
                        sent += w.bytes
                        w.removeAll()
                    } else {
                        stream.writeNext(to: &other, bytes: size)
                        sent += other.bytes
                        other.removeAll()
                    }
                    pieces += 1
                }
                #expect(sent == whole, "pieces of \(size) bytes")
                if size == 1 && args.limit == nil { #expect(pieces > names.count + 7, "a piece ends after each photo at least") }
            }
        }
    }

    /// A listing shows the index as it was when it was asked for, however the
    /// index changes while it is still being written (it is written outside the lock).
    @Test func aListingShowsTheIndexAsItWasWhenAskedFor() throws {
        let f = try ReconcileTests.Fixture()
        let names = (1...30).map { String(format: "DSC_%04d.NEF", $0) }
        for name in names { try f.write("2023/x/" + name) }
        try f.reconcile("2023/x", names)
        let before = try Self.line(f.state, ListRequest(), id: nil)
        var stream = try ListCommand.stream(in: f.state, ListRequest(), id: nil, uid: Self.me.uid, fields: .all)
        var w = JSONWriter(reservingCapacity: 64)
        stream.writeNext(to: &w, bytes: 300)
        // Meanwhile: photos go, one changes, one arrives, the root goes offline.
        let ids = f.state.library.photos.values.map(\.id).sorted()
        for id in ids.prefix(10) { _ = try f.state.library.remove(id) }
        try f.write("2023/x/new.jpg")
        try f.reconcile("2023/x", Array(names.dropFirst(10)) + ["new.jpg"])
        f.state.roots[f.rootID]?.online = false
        while !stream.isFinished { stream.writeNext(to: &w, bytes: 300) }
        #expect(w.bytes == before)
        let after = try Self.line(f.state, ListRequest(), id: nil)
        #expect(after != before, "the change shows in the next listing")
        #expect(String(decoding: after, as: UTF8.self).contains("new.jpg"))
    }

    @Test func captureTimesWriteAsTheirWireForm() {
        for seconds: Int64 in [0, -1, 86_399, 1_715_000_000, -5_364_662_400, 253_402_300_799, Int64.max / 2, Int64.min / 2] {
            let f = CaptureTime(seconds: seconds).fields
            let text = CaptureTime(seconds: seconds).wire
            let written = [UInt8](unsafeUninitializedCapacity: CaptureTime.maxWireCount) { buffer, n in
                n = CaptureTime(seconds: seconds).writeWire(to: buffer.baseAddress!)
            }
            #expect(written == Array(text.utf8), "the listing's fast path writes what `wire` says")
            if (0...9999).contains(f.year) {
                #expect(text == String(format: "%04d-%02d-%02dT%02d:%02d:%02d", f.year, f.month, f.day, f.hour, f.minute, f.second))
            }
        }
    }
}
