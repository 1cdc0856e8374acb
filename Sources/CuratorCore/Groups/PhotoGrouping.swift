// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Groups the files of one folder into shots, by name alone (pure: no disk, no index).
///
/// - A shot's photos share a base name (the name without its extension), ASCII
///   case folded: `IMG_0001.JPG` + `img_0001.cr2`.
/// - They group when they fill distinct places: at most one rendered image
///   (JPEG, HEIC, PNG, TIFF, WebP, AVIF), at most one RAW, and at most one clip
///   (MOV, MP4), a clip only beside a JPEG or HEIC still (a Live Photo). Any
///   other combination of two or more (two rendered, two RAWs, a GIF among them,
///   a RAW and a clip without a still) is not grouped: each stays its own photo,
///   so that nothing is hidden on a guess.
/// - Sidecars join the group of their image: `IMG_0001.xmp` (and `.aae`,
///   `.pp3`, `.dop`, `.thm`) the whole shot, `IMG_0001.CR2.xmp` that one file
///   (matched case-insensitively when no name matches exactly), darktable's
///   `IMG_0001_01.CR2.xmp` its original `IMG_0001.CR2`. One whose image is gone is
///   an orphan; one whose owner cannot be decided goes nowhere.
public enum PhotoGrouping {
    public static func group(names: some Sequence<ByteString>, settings: GroupSettings = .default) -> FolderGrouping {
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
            if !settings.enabled || ordered.count == 1 || !fillsDistinctPlaces(ordered.map(\.type)) {
                if ordered.count > 1 { ambiguousBases.insert(base) }
                for photo in ordered {
                    groupOfPhoto[photo.name] = members.count
                    members.append([GroupMember(name: photo.name, kind: MemberKind(photo.type))])
                }
                if ordered.count == 1 { groupOfBase[base] = members.count - 1 }
                continue
            }
            let shown = ordered.min { rank($0.type, settings.shown) < rank($1.type, settings.shown) } ?? ordered[0]
            var group = [GroupMember(name: shown.name, kind: MemberKind(shown.type))]
            for photo in ordered.sorted(by: { rank($0.type, .rendered) < rank($1.type, .rendered) }) where photo.name != shown.name {
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
                    } else if photosByBase[base] != nil || foreignBases.contains(base) {
                        undecided.append(name)
                    } else {
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
                        undecided.append(name)
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

    private enum Image {
        case one(ByteString)
        case several
    }

    /// The file a file sidecar names: the same name, or else the one name that
    /// differs from it only in case; nil when there is none.
    private static func image(of file: ByteString, present: Set<ByteString>,
                              byFoldedName: [ByteString: [ByteString]]) -> Image? {
        if present.contains(file) { return .one(file) }
        guard let matches = byFoldedName[ShotName.folded(file)] else { return nil }
        return matches.count == 1 ? .one(matches[0]) : .several
    }

    /// Whether two or more photos of one base make a group: one place each.
    static func fillsDistinctPlaces(_ types: [PhotoType]) -> Bool {
        var rendered: [PhotoType] = []
        var raws = 0
        var clips = 0
        for type in types {
            switch type {
            case .gif: return false  // an animation is not the picture of a RAW or a Live Photo
            case .jpeg, .heic, .png, .tiff, .webp, .avif: rendered.append(type)
            case .cr2, .cr3, .nef, .arw, .dng, .orf, .rw2, .raf: raws += 1
            case .mov, .mp4: clips += 1
            case .xmp, .aae, .pp3, .dop, .thm: return false  // a sidecar is no photo of a shot
            }
        }
        guard rendered.count <= 1, raws <= 1, clips <= 1 else { return false }
        if clips == 1 {
            // A Live Photo's still is a JPEG or a HEIC.
            guard let still = rendered.first, still == .jpeg || still == .heic else { return false }
        }
        return true
    }

    /// Which photo of a group is shown: the lower rank.
    private static func rank(_ type: PhotoType, _ shown: GroupSettings.Shown) -> Int {
        switch (MemberKind(type), shown) {
        case (.rendered, .rendered), (.raw, .raw): 0
        case (.raw, .rendered), (.rendered, .raw): 1
        default: 2
        }
    }
}
