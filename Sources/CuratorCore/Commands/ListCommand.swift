// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// `list`: a page of a view (the session's, or one given), grouped by folder.
/// Answered with a stream: what it shows is taken under the lock (copy-on-write
/// copies, see `ListingStream`) and written outside it, a piece at a time.
enum ListCommand: CommandHandler {
    static func respond(to arguments: ListRequest, id: RequestID?, caller: Caller, curator: Curator,
                        send: (Curator.Answer) -> Void) throws {
        let fields = try arguments.fields.map { (names) throws(ProtocolError) in try PhotoFields(names: names) } ?? .all
        // Handed over under the lock, where events are published too (`Curator.answer`).
        try curator.withState { (state) throws(ProtocolError) in
            send(.listing(try stream(in: state, arguments, id: id, uid: caller.uid, fields: fields)))
        }
    }

    /// The `list` answer, to be written outside the lock (see `ListingStream`). It
    /// says what `Wire.success` would say for a `ListResult` of `summary(...)`s (a
    /// test holds the two to that), without building those: two Strings and a
    /// struct per photo were most of the time of a 100 000-photo listing.
    static func stream(in state: CuratorState, _ args: ListRequest, id: RequestID?, uid: UInt32,
                       fields: PhotoFields) throws(ProtocolError) -> ListingStream {
        let key = try SessionKey.named(args.session, uid: uid)
        let current = state.session(key)
        let spec = args.view ?? current.view
        let view = try state.resolveView(spec, uid: uid)
        let total = view.count
        let offset = max(args.offset ?? 0, 0)
        let limit = max(args.limit ?? Int.max, 0)
        let positions = offset < total ? offset..<(limit >= total - offset ? total : offset + limit) : total..<total
        let encodedView = (try? Wire.makeEncoder().encode(spec)).map { [UInt8]($0) } ?? Array("{}".utf8)
        let photos = ListingPhotoWriter(roots: state.roots, folders: state.library.folders, fields: fields,
                                        selection: current.selection.isEmpty ? nil : current.selection,
                                        thumbnailsReady: state.thumbnails.ready,
                                        groupLinks: state.library.groupLinks,
                                        table: state.library.photos,
                                        duplicates: spec.filter?.duplicates == true ? state.duplicateMarks(uid: uid) : nil,
                                        stacks: spec.filter.map { $0.stacks == true || $0.collapseStacks == true } == true
                                            ? state.stackMarks(uid: uid) : nil,
                                        marks: state.marks.groups)
        return ListingStream(id: id, table: state.library.photos, slots: view.slots, folderTotals: view.folderTotals,
                             positions: positions, offset: offset, view: encodedView, photos: photos, files: view.files)
    }
}
