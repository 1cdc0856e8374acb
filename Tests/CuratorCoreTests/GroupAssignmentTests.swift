// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// `GroupAssignment` (by index, names read in place) against the grouping it
/// replaced, kept here as the reference: names copied, case folded and hashed, one
/// dictionary per question. Both must group every folder alike.
@Suite struct GroupAssignmentTests {
    @Test func groupsEveryRandomFolderAsTheReferenceDoes() {
        let bases = ["IMG_0001", "img_0001", "IMG_0002", "DSC_1", "a.b", "A.B", "IMG_0001_01", "img_0001_001", "IMG_0001_00",
                     "x_12", "x", "Ré", "RÉ"]
        let photos = ["JPG", "jpg", "jpeg", "HEIC", "png", "CR2", "cr2", "NEF", "dng", "MOV", "mp4", "gif", "tif"]
        let sidecars = ["xmp", "XMP", "aae", "pp3", "dop", "thm"]
        let settings = [GroupSettings.default, GroupSettings(shown: .raw), GroupSettings(enabled: false),
                        GroupSettings(enabled: true, shown: .rendered, types: PhotoTypeFilter(types: [.jpeg, .cr2, .mov]))]
        var random = SplitMix64(seed: 15)
        var grouped = 0
        var sidecarsJoined = 0
        for round in 0..<3000 {
            var names = Set<String>()
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let base = bases[Int.random(in: 0..<bases.count, using: &random)]
                let photo = photos[Int.random(in: 0..<photos.count, using: &random)]
                let sidecar = sidecars[Int.random(in: 0..<sidecars.count, using: &random)]
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1: names.insert("\(base).\(photo)")
                case 2: names.insert("\(base).\(sidecar)")
                case 3: names.insert("\(base).\(photo).\(sidecar)")
                case 4: names.insert("\(base).txt.\(sidecar)")
                default: names.insert(Bool.random(using: &random) ? "\(base).txt" : base)
                }
            }
            let list = names.shuffled(using: &random).map { ByteString($0) }
            for setting in settings {
                let got = PhotoGrouping.group(names: list, settings: setting)
                let want = ReferenceGrouping.group(names: list, settings: setting)
                #expect(got == want, "round \(round), \(setting): \(list.map(\.lossyString))")
                if got != want { return }
                grouped += got.groups.filter { $0.photos.count > 1 }.count
                sidecarsJoined += got.groups.map(\.sidecars.count).reduce(0, +)
            }
        }
        // The rounds reach every rule, not only photos alone.
        #expect(grouped > 300, "\(grouped) pairs")
        #expect(sidecarsJoined > 1000, "\(sidecarsJoined) sidecars joined")
    }
}

/// The grouping `GroupAssignment` replaced, as it was (issue 15's rules by names).
enum ReferenceGrouping {
    static func group(names: some Sequence<ByteString>, settings: GroupSettings = .default) -> FolderGrouping {
        let expected = names.underestimatedCount  // sized once: a folder's names grew them step by step
        var photosByBase: [ByteString: [(name: ByteString, type: PhotoType)]] = Dictionary(minimumCapacity: expected)
        /// Bases of files that are photos by extension but not of this root's types.
        var foreignBases: Set<ByteString> = []
        var sidecars: [(name: ByteString, shot: ShotName)] = []
        var fileSidecars = false
        var all: [ByteString] = []
        all.reserveCapacity(expected)

        for name in names {
            all.append(name)
            let shot = ShotName(name)
            switch shot {
            case .photo(let type, let base):
                if settings.types.contains(type) {
                    photosByBase[base, default: []].append((name, type))
                } else {
                    foreignBases.insert(base)
                }
            case .shotSidecar:
                sidecars.append((name, shot))
            case .fileSidecar:
                sidecars.append((name, shot))
                fileSidecars = true
            case .other:
                break
            }
        }
        /// Every name, and every name case folded, for the image of a file
        /// sidecar (matched case-insensitively when no name matches exactly):
        /// made only for a folder that has such a sidecar.
        var byFoldedName: [ByteString: [ByteString]] = [:]
        var present: Set<ByteString> = []
        if settings.enabled && fileSidecars {
            present = Set(all)
            for name in all { byFoldedName[ShotName.folded(name), default: []].append(name) }
        }

        var groupOfBase: [ByteString: Int] = Dictionary(minimumCapacity: photosByBase.count)
        var groupOfPhoto: [ByteString: Int] = Dictionary(minimumCapacity: expected)
        var members: [[GroupMember]] = []
        members.reserveCapacity(photosByBase.count)
        var ambiguousBases: Set<ByteString> = []
        for (base, photos) in photosByBase {
            let ordered = photos.sorted { $0.name < $1.name }
            if !settings.enabled || ordered.count == 1 || !PhotoGrouping.fillsDistinctPlaces(ordered.map(\.type)) {
                if ordered.count > 1 { ambiguousBases.insert(base) }
                for photo in ordered {
                    groupOfPhoto[photo.name] = members.count
                    members.append([GroupMember(name: photo.name, kind: MemberKind(photo.type))])
                }
                if ordered.count == 1 { groupOfBase[base] = members.count - 1 }
                continue
            }
            let shown = ordered.min { PhotoGrouping.rank($0.type, settings.shown) < PhotoGrouping.rank($1.type, settings.shown) } ?? ordered[0]
            var group = [GroupMember(name: shown.name, kind: MemberKind(shown.type))]
            for photo in ordered.sorted(by: { PhotoGrouping.rank($0.type, .rendered) < PhotoGrouping.rank($1.type, .rendered) }) where photo.name != shown.name {
                group.append(GroupMember(name: photo.name, kind: MemberKind(photo.type)))
            }
            groupOfBase[base] = members.count
            for photo in ordered { groupOfPhoto[photo.name] = members.count }
            members.append(group)
        }

        var orphans: [ByteString] = []
        var undecided: [ByteString] = []
        if settings.enabled {
            for (name, shot) in sidecars {
                switch shot {
                case .shotSidecar(_, let base):
                    if let index = groupOfBase[base], !foreignBases.contains(base) {
                        members[index].append(GroupMember(name: name, kind: .sidecar))
                    } else if foreignBases.contains(base) {
                        undecided.append(name)
                    } else {  // its image gone, or several photos of its base
                        orphans.append(name)
                    }
                case .fileSidecar(_, let file, let duplicateOf):
                    switch image(of: file, present: present, byFoldedName: byFoldedName)
                        ?? duplicateOf.flatMap({ image(of: $0, present: present, byFoldedName: byFoldedName) }) {
                    case .one(let image)?:
                        if let index = groupOfPhoto[image] {
                            members[index].append(GroupMember(name: name, kind: .sidecar, sidecarOf: image))
                        } else {
                            undecided.append(name)  // an image of a type this root does not count
                        }
                    case .several?:
                        orphans.append(name)
                    case nil:
                        orphans.append(name)
                    }
                case .photo, .other:
                    break
                }
            }
        }

        let groups = members.map { group in
            ShotGroup(members: [group[0]] + group.dropFirst().filter { $0.kind != .sidecar }
                      + group.filter { $0.kind == .sidecar }.sorted { $0.name < $1.name })
        }
        return FolderGrouping(groups: groups.sorted { $0.shown.name < $1.shown.name },
                              orphans: orphans.sorted(), undecided: undecided.sorted())
    }

    enum Image {
        case one(ByteString)
        case several
    }

    /// The file a file sidecar names: the same name, or else the one name that
    /// differs from it only in case; nil when there is none.
    static func image(of file: ByteString, present: Set<ByteString>,
                              byFoldedName: [ByteString: [ByteString]]) -> Image? {
        if present.contains(file) { return .one(file) }
        guard let matches = byFoldedName[ShotName.folded(file)] else { return nil }
        return matches.count == 1 ? .one(matches[0]) : .several
    }

}
