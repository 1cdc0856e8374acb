// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

extension CuratorState {
    /// The `list` answer, to be written outside the lock (see `ListingStream`). It
    /// says what `Wire.success` would say for a `ListResult` of `summary(...)`s (a
    /// test holds the two to that), without building those: two Strings and a
    /// struct per photo were most of the time of a 100 000-photo listing.
    func listingStream(_ args: ListRequest, id: RequestID?, client: ClientContext, fields: PhotoFields) throws(ProtocolError) -> ListingStream {
        let key = try sessionKey(args.session, uid: client.uid)
        let current = session(key)
        let spec = args.view ?? current.view
        let view = try resolveView(spec)
        let total = view.ids.count
        let offset = max(args.offset ?? 0, 0)
        let limit = max(args.limit ?? Int.max, 0)
        let positions = offset < total ? offset..<(limit >= total - offset ? total : offset + limit) : total..<total
        let encodedView = (try? Wire.makeEncoder().encode(spec)).map { [UInt8]($0) } ?? Array("{}".utf8)
        let photos = ListingPhotoWriter(state: self, fields: fields, selection: current.selection.isEmpty ? nil : current.selection)
        return ListingStream(id: id, table: library.photos.values, slots: view.slots, folderTotals: view.folderTotals,
                             positions: positions, offset: offset, view: encodedView, photos: photos)
    }
}
