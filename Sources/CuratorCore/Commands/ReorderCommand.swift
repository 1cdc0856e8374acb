// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `reorder`: a photo moved to another position of the custom order, within its
/// folder, while the view has no filter (article 001).
enum ReorderCommand: StateCommand {
    static func run(in state: any ReorderScope, _ args: ReorderRequest, caller: Caller) throws(ProtocolError) -> ReorderResult {
        let library = state.library
        let key = try SessionKey.named(args.session, uid: caller.uid)
        let session = state.session(key)
        // Article 001: reordering only while no search text is active.
        if session.view.hasFilter {
            throw ProtocolError(.filterActive, "Photos can be reordered only while the view has no filter; clear the filter first.")
        }
        guard session.view.sort == .custom else {
            throw ProtocolError(.invalidArgument, "Reordering works in the custom order: set the view's sort to \"custom\" first.",
                                argument: "sort")
        }
        let ids = try state.resolve(session.view, uid: key.uid)
        let id: Int64
        if let given = args.photo {
            guard ids.contains(given) else {
                throw ProtocolError(.noSuchPhoto, "Photo \(given) is not in this session's view.", photos: [given])
            }
            id = given
        } else if let position = args.position {
            guard position >= 1 && position <= ids.count else {
                throw ProtocolError(.noSuchPosition, "There is no position \(position): the view has \(ids.count) photos.", positions: [position])
            }
            id = ids[position - 1]
        } else {
            throw ProtocolError(.invalidArgument, "Name the photo to move by position or id.", argument: "position")
        }
        guard args.to >= 1 && args.to <= ids.count else {
            throw ProtocolError(.noSuchPosition, "There is no position \(args.to): the view has \(ids.count) photos.", positions: [args.to])
        }
        guard let photo = library.listed(id), let from = ids.firstIndex(of: id) else {
            throw ProtocolError(.noSuchPhoto, "Photo \(id) is gone.", photos: [id])
        }
        let target = ids[args.to - 1]
        guard let targetPhoto = library.listed(target), targetPhoto.folderID == photo.folderID else {
            throw ProtocolError(.invalidArgument, "A photo keeps to its folder: position \(args.to) is in another folder.", argument: "to")
        }
        // Move it in the view, then renumber its folder in the resulting order.
        var viewOrder = Array(ids)
        viewOrder.remove(at: from)
        viewOrder.insert(id, at: args.to - 1)
        let order = viewOrder.filter { library.listed($0)?.folderID == photo.folderID }
        do {
            try library.batch {
                for (index, member) in order.enumerated() where library.listed(member)?.rank != Int64(index + 1) {
                    if let row = library.listed(member)?.id { try library.setRank(row, Int64(index + 1)) }
                }
            }
        } catch {
            throw ProtocolError(.internalError, "The new order could not be saved: \(error).")
        }
        state.viewCache.invalidate()
        return ReorderResult(id: id, from: from + 1, to: args.to)
    }
}
