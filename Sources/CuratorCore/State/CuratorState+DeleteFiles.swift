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
        let byName = Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let shows = library.groupSettings[photo.rootID]?.shown ?? .rendered
        return GroupPart.files(of: files.map(\.name), shown: photo.name, only: only, shows: shows).compactMap { byName[$0] }
    }
}
