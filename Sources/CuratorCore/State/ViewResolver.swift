// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// The last views resolved, valid while the library has not changed. Listing a
/// page at a time, and selecting by position, then cost no re-sort.
struct ViewCache {
    private var generation: UInt64 = .max
    private var entries: [ViewSpec: [Int64]] = [:]

    mutating func invalidate() { entries.removeAll(keepingCapacity: true) }

    mutating func lookup(_ spec: ViewSpec, generation: UInt64) -> [Int64]? {
        if generation != self.generation {
            entries.removeAll(keepingCapacity: true)
            self.generation = generation
            return nil
        }
        return entries[spec]
    }

    mutating func store(_ spec: ViewSpec, ids: [Int64]) {
        if entries.count >= 16 { entries.removeAll(keepingCapacity: true) }
        entries[spec] = ids
    }
}

extension CuratorState {
    /// The photos of a view, in its order: position N is element N-1.
    func resolve(_ spec: ViewSpec) throws(ProtocolError) -> [Int64] {
        if let cached = viewCache.lookup(spec, generation: library.generation) { return cached }
        let ids = try computeView(spec)
        viewCache.store(spec, ids: ids)
        return ids
    }

    private func computeView(_ spec: ViewSpec) throws(ProtocolError) -> [Int64] {
        var rootFilter: Int32?
        if let name = spec.root {
            guard let id = rootID(named: name) else {
                throw ProtocolError(.noSuchRoot, "There is no root named \"\(name)\"; roots: \(rootOrder.map(rootName).joined(separator: ", ")).",
                                    argument: "root")
            }
            rootFilter = id
        }
        let folderPath = try spec.folderPath()
        if folderPath != nil && rootFilter == nil {
            if rootOrder.count == 1 { rootFilter = rootOrder[0] } else {
                throw ProtocolError(.invalidArgument, "A folder needs a root when several roots are configured.", argument: "root")
            }
        }
        let recursive = spec.recursive ?? true
        let filter = try CompiledFilter(spec.filter)

        // Folders in the view, with their path, computed once.
        var folderPaths: [Int32: ByteString] = [:]
        for folder in library.folders.values {
            if let rootFilter, folder.rootID != rootFilter { continue }
            guard roots[folder.rootID] != nil else { continue }
            if let folderPath {
                if recursive ? !folder.path.isWithin(folderPath) : folder.path != folderPath { continue }
            }
            folderPaths[folder.id] = folder.path
        }
        if let folderPath, let rootFilter, library.folderID(root: rootFilter, path: folderPath) == nil {
            throw ProtocolError(.noSuchFolder, "There is no folder \"\(folderPath.lossyString)\" in root \"\(rootName(rootFilter))\".",
                                argument: "folder")
        }

        var rows: [(id: Int64, photo: Photo, folder: ByteString)] = []
        rows.reserveCapacity(library.photos.count)
        for photo in library.photos.values {
            guard let path = folderPaths[photo.folderID] else { continue }
            if !filter.isEmpty && !filter.matches(photo, folderPath: path) { continue }
            rows.append((photo.id, photo, path))
        }
        let rootRank = Dictionary(uniqueKeysWithValues: rootOrder.enumerated().map { ($1, $0) })
        func pathLess(_ a: (id: Int64, photo: Photo, folder: ByteString), _ b: (id: Int64, photo: Photo, folder: ByteString)) -> Bool {
            let ra = rootRank[a.photo.rootID] ?? 0
            let rb = rootRank[b.photo.rootID] ?? 0
            if ra != rb { return ra < rb }
            if a.folder != b.folder { return a.folder < b.folder }
            if a.photo.name != b.photo.name { return a.photo.name < b.photo.name }
            return a.id < b.id
        }
        switch spec.sort ?? .name {
        case .name:
            rows.sort(by: pathLess)
        case .custom:
            rows.sort { a, b in
                if a.photo.folderID == b.photo.folderID { return a.photo.rank != b.photo.rank ? a.photo.rank < b.photo.rank : a.id < b.id }
                return pathLess(a, b)
            }
        case .capture:
            // Photos without a capture time go last, by path.
            rows.sort { a, b in
                let ca = a.photo.capture.seconds ?? .max
                let cb = b.photo.capture.seconds ?? .max
                return ca != cb ? ca < cb : pathLess(a, b)
            }
        case .mtime:
            rows.sort { a, b in
                a.photo.identity.mtimeNs != b.photo.identity.mtimeNs ? a.photo.identity.mtimeNs < b.photo.identity.mtimeNs : pathLess(a, b)
            }
        case .size:
            rows.sort { a, b in a.photo.size != b.photo.size ? a.photo.size < b.photo.size : pathLess(a, b) }
        }
        var ids = rows.map(\.id)
        if spec.order == .desc { ids.reverse() }
        return ids
    }
}

extension ViewSpec {
    /// The folder as bytes: `folder_raw` (base64) wins over `folder`; "" and "/" mean the root itself.
    func folderPath() throws(ProtocolError) -> ByteString? {
        if let raw = folderRaw {
            guard let bytes = ByteString(base64: raw) else {
                throw ProtocolError(.invalidArgument, "folder_raw is not valid base64.", argument: "folder_raw")
            }
            return bytes.normalizedRelative
        }
        return folder.map { ByteString($0).normalizedRelative }
    }
}

extension ByteString {
    /// Without leading, trailing or doubled slashes, and without "." components.
    var normalizedRelative: ByteString {
        ByteString(components.filter { $0.bytes != [46] }.map(\.bytes).joined(separator: [47]).map { $0 })
    }
}

/// A view's filter, checked once per photo.
struct CompiledFilter {
    var glob: [CChar]?
    var globHasSlash = false
    var types: Set<PhotoType>?
    var from: Int64?
    var to: Int64?

    var isEmpty: Bool { glob == nil && types == nil && from == nil && to == nil }

    init(_ filter: ViewFilter?) throws(ProtocolError) {
        guard let filter else { return }
        if let g = filter.glob, !g.isEmpty {
            glob = Array(g.utf8CString)
            globHasSlash = g.contains("/")
        }
        if let list = filter.types, !list.isEmpty {
            var set = Set<PhotoType>()
            for name in list {
                guard let t = PhotoType(wireName: name.lowercased()) ?? PhotoType.detect(name: ByteString("x." + name)) else {
                    throw ProtocolError(.invalidArgument, "\"\(name)\" is not a photo type.", argument: "filter.types")
                }
                set.insert(t)
            }
            types = set
        }
        if let f = filter.from {
            guard let range = CaptureRange.parse(f) else {
                throw ProtocolError(.invalidArgument, "\"\(f)\" is not a date (YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS).",
                                    argument: "filter.from")
            }
            from = range.start
        }
        if let t = filter.to {
            guard let range = CaptureRange.parse(t) else {
                throw ProtocolError(.invalidArgument, "\"\(t)\" is not a date (YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS).",
                                    argument: "filter.to")
            }
            to = range.end
        }
    }

    func matches(_ photo: Photo, folderPath: ByteString) -> Bool {
        if let types, !types.contains(photo.type) { return false }
        if from != nil || to != nil {
            guard let t = photo.capture.seconds else { return false }
            if let from, t < from { return false }
            if let to, t > to { return false }
        }
        if let glob {
            let subject = globHasSlash ? folderPath.appending(photo.name) : photo.name
            let matched = subject.withCString { s in glob.withUnsafeBufferPointer { fnmatch($0.baseAddress, s, 0) == 0 } }
            if !matched { return false }
        }
        return true
    }
}

/// A capture-date bound as a person types it, as an inclusive range of naive seconds.
enum CaptureRange {
    static func parse(_ text: String) -> (start: Int64, end: Int64)? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let digits = t.split(whereSeparator: { "-:T ".contains($0) }).map(String.init)
        guard (1...6).contains(digits.count), digits.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        let n = digits.compactMap { Int($0) }
        guard n.count == digits.count, digits[0].count == 4 else { return nil }
        var lower = [n[0], 1, 1, 0, 0, 0]
        for i in 1..<n.count { lower[i] = n[i] }
        guard (1...12).contains(lower[1]), (1...31).contains(lower[2]), lower[3] < 24, lower[4] < 60, lower[5] < 61 else { return nil }
        let start = seconds(lower)
        var upper = lower
        let end: Int64
        switch n.count {
        case 1: upper = [n[0] + 1, 1, 1, 0, 0, 0]; end = seconds(upper) - 1
        case 2: upper = lower[1] == 12 ? [n[0] + 1, 1, 1, 0, 0, 0] : [n[0], lower[1] + 1, 1, 0, 0, 0]; end = seconds(upper) - 1
        case 3: end = start + 86_399
        case 4: end = start + 3_599
        case 5: end = start + 59
        default: end = start
        }
        return (start, end)
    }

    static func seconds(_ p: [Int]) -> Int64 {
        var parts = tm()
        parts.tm_year = Int32(p[0] - 1900)
        parts.tm_mon = Int32(p[1] - 1)
        parts.tm_mday = Int32(p[2])
        parts.tm_hour = Int32(p[3])
        parts.tm_min = Int32(p[4])
        parts.tm_sec = Int32(p[5])
        return Int64(timegm(&parts))
    }
}
