// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The files a delete plan takes of each selected photo (issue 15).
extension CuratorState {
    /// Every file of the group the listed `photo` stands for, or the part `only`
    /// names (`GroupPart`), in the group's order. An orphan sidecar is itself; it
    /// has no part of a kind.
    func filesToTrash(of photo: Photo, only: MemberKind?) -> [Photo] {
        if photo.role == .orphan { return only == nil ? [photo] : [] }
        let rows = library.rows(ofGroup: photo.groupID).compactMap { library.photo($0) }
        let files = rows.isEmpty ? [photo] : rows
        // A photo alone is all of itself: what grouping its one name would say, without
        // grouping it (two thirds of a 10 000-photo plan, each a dictionary and sets).
        if files.count == 1, only == nil { return files }
        // All of a group is all its rows: in the order grouping gives (the shown file,
        // its other photos rendered, RAW, clip, then sidecars by name) without grouping
        // their names again (a third of a 10 000-group plan's time).
        if only == nil, files.contains(where: { $0.id == photo.id }) { return Self.inGroupOrder(files, shown: photo.id) }
        let byName = Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let shows = library.groupSettings[photo.rootID]?.shown ?? .rendered
        return GroupPart.files(of: files.map(\.name), shown: photo.name, only: only, shows: shows).compactMap { byName[$0] }
    }

    /// `files` (one group's rows, `shown` among them) in `PhotoGrouping`'s member order.
    static func inGroupOrder(_ files: [Photo], shown: Int64) -> [Photo] {
        var photos: [Photo] = []
        var sidecars: [Photo] = []
        var first: Photo?
        for file in files {
            if file.id == shown { first = file } else if file.type.isSidecar { sidecars.append(file) } else { photos.append(file) }
        }
        photos.sort { PhotoGrouping.rank($0.type, .rendered) < PhotoGrouping.rank($1.type, .rendered) }
        sidecars.sort { $0.name < $1.name }
        return (first.map { [$0] } ?? []) + photos + sidecars
    }
}
