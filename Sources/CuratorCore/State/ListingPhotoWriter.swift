// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Writes photo objects of a listing straight from `Photo`, with the keys and
/// values `CuratorState.summary` gives (sorted keys, as the Codable encoder
/// writes them). What is the same for many photos (a folder's path, a root's
/// name and facts, a type's name) is escaped once and reused.
struct ListingPhotoWriter {
    private struct RootPart {
        var name: [UInt8]
        var offline: Bool
        var mayProtect: Bool
    }

    private let state: CuratorState
    private let fields: PhotoFields
    private let selection: OrderedSelection?
    private var roots: [Int32: RootPart] = [:]
    private var types: [PhotoType: [UInt8]] = [:]
    private var folderID: Int32 = -1
    /// The folder's path with its `/`, escaped; nil when it is not valid UTF-8.
    private var folderPrefix: [UInt8]? = []
    /// The current photo's root and type, looked up only when they change (most
    /// listings have one root; a folder's photos share a few types).
    private var rootID: Int32 = -1
    private var root = RootPart(name: [], offline: false, mayProtect: false)
    private var type: PhotoType?
    private var typeName: [UInt8] = []

    init(state: CuratorState, fields: PhotoFields, selection: OrderedSelection?) {
        self.state = state
        self.fields = fields
        self.selection = selection
        let facts = RootFacts(state)
        for id in state.roots.keys {
            roots[id] = RootPart(name: JSONWriter.escaped(state.rootName(id).utf8), offline: facts.offline.contains(id),
                                 mayProtect: facts.mayProtect.contains(id))
        }
        for type in PhotoType.allCases { types[type] = JSONWriter.escaped(type.wireName.utf8) }
    }

    /// One photo object.
    mutating func write(_ photo: Photo, position: Int, to w: inout JSONWriter) {
        w.beginObject()
        defer { w.endObject() }
        if photo.rootID != rootID {
            rootID = photo.rootID
            root = roots[rootID] ?? RootPart(name: JSONWriter.escaped(state.rootName(rootID).utf8), offline: false, mayProtect: false)
        }
        if fields.contains(.captureTime), let seconds = photo.capture.seconds {
            w.key("capture_time")
            w.plainString(maxCount: CaptureTime.maxWireCount) { CaptureTime(seconds: seconds).writeWire(to: $0) }
        }
        if fields.contains(.id) { w.key("id"); w.int(photo.id) }
        if fields.contains(.mtimeNs) { w.key("mtime_ns"); w.int(photo.identity.mtimeNs) }
        if fields.contains(.offline), root.offline { w.key("offline"); w.bool(true) }
        if fields.contains(.path) { writePath(photo, to: &w) }
        if fields.contains(.position) { w.key("position"); w.int(position) }
        if fields.contains(.protected), root.mayProtect, state.isProtected(photo) { w.key("protected"); w.bool(true) }
        if fields.contains(.root) { w.key("root"); w.string(escaped: root.name) }
        if fields.contains(.selected), let number = selection?.number(of: photo.id) { w.key("selected"); w.int(number) }
        if fields.contains(.size) { w.key("size"); w.int(photo.size) }
        if fields.contains(.type) {
            if photo.type != type {
                type = photo.type
                typeName = types[photo.type] ?? JSONWriter.escaped(photo.type.wireName.utf8)
            }
            w.key("type")
            w.string(escaped: typeName)
        }
    }

    /// `path`, and `path_raw` when the path is not valid UTF-8 (then the slow way,
    /// as `summary` does it: such names are rare).
    private mutating func writePath(_ photo: Photo, to w: inout JSONWriter) {
        if photo.folderID != folderID {
            folderID = photo.folderID
            let path = state.library.folders[folderID]?.path ?? .empty
            folderPrefix = path.isEmpty ? [] : (Self.isUTF8(path.bytes) ? JSONWriter.escaped(path.bytes + [UInt8(ascii: "/")]) : nil)
        }
        let written: Bool = photo.name.bytes.withUnsafeBufferPointer { name in
            guard let prefix = folderPrefix, Self.isUTF8(name) else { return false }
            w.key("path")
            prefix.withUnsafeBufferPointer { w.string(escapedPrefix: $0, name) }
            return true
        }
        if written { return }
        let path = state.wirePath(state.library.relativePath(of: photo))
        w.key("path"); w.string(path.path)
        if let raw = path.pathRaw { w.key("path_raw"); w.string(raw) }
    }

    /// Most names are ASCII, checked without decoding; the rest are validated.
    private static func isUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }
}
