// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Where photos are in a view, without the whole view resolved where it need not
/// be (`delete.prepare` orders its plan by them). After any change to the library
/// the cached views are gone, and resolving a million photos' view again to place
/// a selection in it was half of a prepare at a million (0.15 s under the state's
/// lock, every other user waiting). A view by name without a filter needs no
/// photo outside the folders of the photos asked for: a photo's position is the
/// photos listed in the folders before its own (`PhotoLibrary.listedByFolder`)
/// plus its place among its own folder's.
extension CuratorState {
    /// Where each of `photos` (by the id it is listed under) is in the view `spec`
    /// as `uid` sees it, from 1; a photo not in the view has none.
    func positions(of photos: [Int64: Photo], inView spec: ViewSpec, uid: UInt32) throws(ProtocolError) -> [Int64: Int] {
        guard !photos.isEmpty else { return [:] }
        let scope = try ViewMembership(spec, roots: roots)
        let audience: ViewAudience = listsEverything(uid: uid, root: scope.root) ? .everything : .user(uid)
        if let cached = viewCache.lookup(spec, for: audience, generation: library.generation, accessGeneration: access.generation) {
            return Self.positions(of: photos, in: cached, table: library.photos)
        }
        guard spec.sort ?? .name == .name, scope.filter.isEmpty, scope.filter.listedRole == .shown else {
            return Self.positions(of: photos, in: try resolveView(spec, uid: uid), table: library.photos)
        }
        let (ordered, paths) = try viewFolders(scope, uid: audience == .everything ? nil : uid)
        return positionsByName(of: photos, folders: ordered, paths: paths, descending: spec.order == .desc)
    }

    /// `positions(of:inView:)` for a view by name without a filter over `folders`
    /// (in the view's order). Only the folders of `photos` are read row by row.
    func positionsByName(of photos: [Int64: Photo], folders: [Int32], paths: [Int32: ByteString],
                         descending: Bool) -> [Int64: Int] {
        var asked: Set<Int32> = []
        for photo in photos.values where paths[photo.folderID] != nil { asked.insert(photo.folderID) }
        var found: [Int64: Int] = [:]
        found.reserveCapacity(photos.count)
        var before = 0
        for folder in folders {
            if asked.contains(folder) {
                forEachListed(inFolder: folder) { place, listedID in
                    if photos[listedID] != nil { found[listedID] = before + place }
                }
            }
            before += library.listedByFolder[folder] ?? 0
        }
        if descending {
            for (id, position) in found { found[id] = before - position + 1 }
        }
        return found
    }

    /// The photos at the positions `text` names (in the order typed) of the view
    /// `view` as `uid` sees it, by per-folder counts where the view is by name without
    /// a filter and not cached (a `select` by position at a million photos after a
    /// change, as a culling client does key by key); nil where the view is to be
    /// resolved whole. The view is checked before the positions are read, and
    /// positions beyond it are refused, as there.
    func photosByName(at text: String, inView view: ViewSpec, uid: UInt32) throws(ProtocolError) -> [Int64]? {
        let scope = try ViewMembership(view, roots: roots)
        let audience: ViewAudience = listsEverything(uid: uid, root: scope.root) ? .everything : .user(uid)
        guard view.sort ?? .name == .name, scope.filter.isEmpty, scope.filter.listedRole == .shown,
              viewCache.lookup(view, for: audience, generation: library.generation, accessGeneration: access.generation) == nil
        else { return nil }
        let (folders, _) = try viewFolders(scope, uid: audience == .everything ? nil : uid)
        let count = folders.reduce(0) { $0 + (library.listedByFolder[$1] ?? 0) }
        let positions: [Int]
        do {
            positions = try PositionSpec(parsing: text).resolve(count: count)
        } catch {
            throw error.protocolError
        }
        // Ascending positions, swept once through the folders in the view's order.
        let ascending = positions.map { view.order == .desc ? count - $0 + 1 : $0 }
        let wanted = Array(Set(ascending)).sorted()
        var found: [Int: Int64] = [:]
        found.reserveCapacity(wanted.count)
        var next = 0
        var before = 0
        for folder in folders where next < wanted.count {
            let listed = library.listedByFolder[folder] ?? 0
            if wanted[next] <= before + listed {
                forEachListed(inFolder: folder) { place, listedID in
                    guard next < wanted.count, wanted[next] == before + place else { return }
                    found[before + place] = listedID
                    next += 1
                }
            }
            before += listed
        }
        // A count that disagreed with the rows (it must not) leaves the whole view to answer.
        var ids: [Int64] = []
        ids.reserveCapacity(ascending.count)
        for position in ascending {
            guard let id = found[position] else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// A folder's photos as a view by name lists them: its rows by name, each shown
    /// photo once (a group by its shown file), with its place among them from 1 and
    /// the id it is listed under (its group's).
    private func forEachListed(inFolder folder: Int32, _ body: (_ place: Int, _ listedID: Int64) -> Void) {
        let table = library.photos
        var place = 0
        library.forEachPhotoID(inFolder: folder) { id in
            guard let row = table.row(id), row.role == .shown else { return }
            place += 1
            body(place, table.groupID(of: row))
        }
    }

    /// Where each of `photos` (by the id it is listed under) is in `view`, from 1.
    /// One pass over the view's slots testing a bit per slot, not an id and a hash
    /// per photo of the view: those were 90 ms of a prepare in a million photos. A
    /// listed photo is its group's listed row, so its slot is the view's.
    static func positions(of photos: [Int64: Photo], in view: ResolvedView, table: PhotoTable) -> [Int64: Int] {
        guard !photos.isEmpty else { return [:] }
        var marked = [UInt64](repeating: 0, count: table.count / 64 + 1)
        for photo in photos.values {
            guard let slot = table.slot(of: photo.id), Int(slot) < table.count else { continue }
            marked[Int(slot) >> 6] |= 1 << UInt64(slot & 63)
        }
        var found: [Int64: Int] = [:]
        found.reserveCapacity(photos.count)
        let ids = view.ids(in: table)
        for (index, slot) in view.slots.enumerated()
        where Int(slot) < table.count && marked[Int(slot) >> 6] & (1 << UInt64(slot & 63)) != 0 {
            let id = ids[index]
            if photos[id] != nil { found[id] = index + 1 }
        }
        return found
    }
}
