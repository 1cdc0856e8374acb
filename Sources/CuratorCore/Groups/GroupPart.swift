// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What a delete takes of one listed group (issue 15): every file of it, or with
/// `only` the part of that kind (`ShotGroup.part`: those photos and the sidecars
/// that belong to them; the shot's own sidecars only when no photo would stay).
/// Pure: names in, names out, so that the delete plan's choice is unit-tested.
public enum GroupPart {
    /// `names`: the group's files (in any order); `shown`: the file that stands for
    /// it. Returns the names to trash in the group's order (the shown photo, the
    /// other photos, the sidecars); empty when the group has nothing of that kind.
    public static func files(of names: [ByteString], shown: ByteString, only: MemberKind?,
                             shows: GroupSettings.Shown = .rendered) -> [ByteString] {
        let grouping = PhotoGrouping.group(names: names, settings: GroupSettings(enabled: true, shown: shows, types: .all))
        let group = grouping.groups.first { $0.members.contains { $0.name == shown } }
        guard let group, group.members.count == names.count else {
            // Not one group by the rules (an orphan sidecar, rows the index grouped
            // by rules since changed): all of it, or of a part only its photos of that kind.
            guard let only else { return names }
            return names.filter { name in PhotoType.detect(name: name).map { MemberKind($0) == only } ?? false }
        }
        return (only.map(group.part) ?? group.members).map(\.name)
    }
}
