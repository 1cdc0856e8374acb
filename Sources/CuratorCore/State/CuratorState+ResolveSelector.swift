// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What a `select`, `deselect` or `toggle` names (positions, ids, all, a folder, a
/// glob, a date range), as photo ids: against the index, the roots and the view.
extension CuratorState {
    /// Turns what a client named into photo ids, in the order named, among the
    /// photos `uid` may see: an id they may not see is an unknown id.
    func resolveSelector(_ selector: PhotoSelector, view: ViewSpec, uid: UInt32) throws(ProtocolError) -> [Int64] {
        let kinds = [selector.positions != nil, selector.ids != nil, selector.all == true, selector.folder != nil,
                     selector.glob != nil, selector.from != nil || selector.to != nil, selector.duplicates != nil,
                     selector.stacks != nil, selector.hasMarks].filter { $0 }.count
        guard kinds == 1 else {
            throw ProtocolError(.invalidArgument, kinds == 0
                ? "Name the photos: positions, ids, all, folder, glob, a date range (from/to), duplicates, stacks or marks."
                : "Name the photos one way at a time: positions, ids, all, folder, glob, from/to, duplicates, stacks or marks "
                    + "(rating_min/rating_max/flags/labels).")
        }
        if selector.duplicates != nil { return try duplicateRest(view: view, selection: OrderedSelection(), uid: uid).groupIDs }
        if selector.stacks != nil { return try stackRest(view: view, selection: OrderedSelection(), uid: uid).groupIDs }
        if let ids = selector.ids {
            let unknown = ids.filter { id in
                guard let photo = library.listed(id), roots[photo.rootID] != nil else { return true }
                return !maySee(photo, uid: uid)
            }
            if !unknown.isEmpty {
                throw ProtocolError(.noSuchPhoto, "No photo has the id \(unknown.map(String.init).joined(separator: ", ")).", photos: unknown)
            }
            return ids
        }
        if let text = selector.positions {
            // Without the whole view where the view is by name (`ViewPositions`). Either
            // way the view is checked before the positions are read, so a request wrong
            // in both is answered with the view's error.
            if let ids = try photosByName(at: text, inView: view, uid: uid) { return ids }
            let viewIDs = try resolve(view, uid: uid)
            do {
                return try PositionSpec(parsing: text).resolve(in: viewIDs)
            } catch {
                throw error.protocolError
            }
        }
        let viewIDs = try resolve(view, uid: uid)
        if selector.all == true { return Array(viewIDs) }
        var narrowed = view
        var filter = view.filter ?? ViewFilter()
        if let folder = selector.folder {
            let path = ByteString(folder).normalizedRelative
            let ids = viewIDs.filter { id in
                guard let p = library.listed(id), let f = library.folders[p.folderID] else { return false }
                return f.path.isWithin(path)
            }
            if ids.isEmpty && library.folders.values.allSatisfy({ !$0.path.isWithin(path) || !mayList(folderID: $0.id, root: $0.rootID, uid: uid) }) {
                throw ProtocolError(.noSuchFolder, "There is no folder \"\(folder)\" in this view.", argument: "folder")
            }
            return ids
        }
        if let glob = selector.glob { filter.glob = glob }
        if selector.from != nil { filter.from = selector.from }
        if selector.to != nil { filter.to = selector.to }
        if selector.hasMarks {
            // These marks, beside whatever marks the view itself narrows by.
            var own = ViewFilter(ratingMin: selector.ratingMin, ratingMax: selector.ratingMax, flags: selector.flags,
                                 labels: selector.labels)
            if own.ratingMin == nil { own.ratingMin = filter.ratingMin }
            if own.ratingMax == nil { own.ratingMax = filter.ratingMax }
            if own.flags == nil { own.flags = filter.flags }
            if own.labels == nil { own.labels = filter.labels }
            if !own.hasMarks {
                throw ProtocolError(.invalidArgument, "flags and labels name at least one value.", argument: "flags")
            }
            filter.ratingMin = own.ratingMin
            filter.ratingMax = own.ratingMax
            filter.flags = own.flags
            filter.labels = own.labels
        }
        narrowed.filter = filter
        let matching = Set(try resolve(narrowed, uid: uid))
        return viewIDs.filter(matching.contains)
    }
}
