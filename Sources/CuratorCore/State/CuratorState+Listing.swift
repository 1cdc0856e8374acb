// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

extension CuratorState {
    /// The whole `list` response line, written straight from the photo table. It
    /// says what `Wire.success` would say for a `ListResult` of `summary(...)`s (a
    /// test holds the two to that), without building those: two Strings and a
    /// struct per photo were most of the time of a 100 000-photo listing.
    func listing(_ args: ListRequest, id: RequestID?, client: ClientContext, fields: PhotoFields) throws(ProtocolError) -> [UInt8] {
        let key = try sessionKey(args.session, uid: client.uid)
        let current = session(key)
        let spec = args.view ?? current.view
        let view = try resolveView(spec)
        let total = view.ids.count
        let offset = max(args.offset ?? 0, 0)
        let limit = max(args.limit ?? Int.max, 0)
        let positions = offset < total ? offset..<(limit >= total - offset ? total : offset + limit) : total..<total
        let table = library.photos.values

        // The line's size, estimated generously without reading the names (only the
        // bytes written become resident): a photo's keys and numbers take under 200
        // bytes, its path rarely 100. A longer answer moves out once (one copy).
        let estimate = 4096 + 300 * positions.count
        let encodedView = (try? Wire.makeEncoder().encode(spec)).map { [UInt8]($0) } ?? Array("{}".utf8)
        var photos = ListingPhotoWriter(state: self, fields: fields, selection: current.selection.isEmpty ? nil : current.selection)
        return ListingLine.write(id: id, offset: offset, total: total, view: encodedView, capacity: estimate, folders: { w in
            var start = positions.lowerBound
            while start < positions.upperBound {
                let first = table[Int(view.slots[start])]
                var end = start + 1
                while end < positions.upperBound, table[Int(view.slots[end])].folderID == first.folderID { end += 1 }
                let path = wirePath(library.folders[first.folderID]?.path ?? .empty)
                FolderSection(root: rootName(first.rootID), path: path.path, pathRaw: path.pathRaw,
                              count: end - start, firstPosition: start + 1).write(to: &w)
                start = end
            }
        }, photos: { w in
            for index in positions { photos.write(table[Int(view.slots[index])], position: index + 1, to: &w) }
        })
    }
}
