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
///   an orphan, and so is one that several photos could take (`IMG_0001.xmp` beside
///   `IMG_0001.JPG` and `IMG_0001.jpeg`): listed, never trashed with a photo on a
///   guess. One whose image is of a type the root does not count goes nowhere.
public enum PhotoGrouping {
    public static func group(names: some Sequence<ByteString>, settings: GroupSettings = .default) -> FolderGrouping {
        let all = Array(names)
        // The names back to back, read in place by the assignment.
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        starts.reserveCapacity(all.count + 1)
        for name in all {
            bytes.append(contentsOf: name.bytes)
            starts.append(bytes.count)
        }
        let assignment = bytes.withUnsafeBufferPointer { buffer in
            GroupAssignment(count: all.count, settings: settings) { UnsafeBufferPointer(rebasing: buffer[starts[$0]..<starts[$0 + 1]]) }
        }
        var sidecars = [[GroupMember]](repeating: [], count: assignment.groupCount)
        var orphans: [ByteString] = []
        var undecided: [ByteString] = []
        for (i, name) in all.enumerated() {
            switch assignment.role[i] {
            case .sidecar:
                let file = assignment.sidecarOf[i]
                sidecars[Int(assignment.group[i])].append(GroupMember(name: name, kind: .sidecar, sidecarOf: file >= 0 ? all[Int(file)] : nil))
            case .orphan:
                orphans.append(name)
            case .undecided where settings.enabled && ShotName(name).isSidecar:
                undecided.append(name)
            case .shown, .member, .undecided:
                break
            }
        }
        let groups = (0..<assignment.groupCount).map { g in
            ShotGroup(members: assignment.photos(ofGroup: g).map { GroupMember(name: all[$0], kind: MemberKind(assignment.types[$0])) }
                      + sidecars[g].sorted { $0.name < $1.name })
        }
        return FolderGrouping(groups: groups.sorted { $0.shown.name < $1.shown.name },
                              orphans: orphans.sorted(), undecided: undecided.sorted())
    }

    /// Whether two or more photos of one base make a group: one place each.
    static func fillsDistinctPlaces(_ types: some Sequence<PhotoType>) -> Bool {
        var rendered: PhotoType?
        var raws = 0
        var clips = 0
        for type in types {
            switch type {
            case .gif: return false  // an animation is not the picture of a RAW or a Live Photo
            case .jpeg, .heic, .png, .tiff, .webp, .avif:
                guard rendered == nil else { return false }
                rendered = type
            case .cr2, .cr3, .nef, .arw, .dng, .orf, .rw2, .raf: raws += 1
            case .mov, .mp4: clips += 1
            case .xmp, .aae, .pp3, .dop, .thm: return false  // a sidecar is no photo of a shot
            }
        }
        guard raws <= 1, clips <= 1 else { return false }
        if clips == 1 {
            // A Live Photo's still is a JPEG or a HEIC.
            guard let still = rendered, still == .jpeg || still == .heic else { return false }
        }
        return true
    }

    /// Whether no two photos of `types` can make a group, whatever their names: none
    /// is a sidecar, and all are of one kind (rendered, RAW or clip), where a group
    /// takes one of each kind it holds (`fillsDistinctPlaces`).
    static func noneCanGroup(_ types: some Sequence<PhotoType>) -> Bool {
        var kind: MemberKind?
        for type in types {
            let this = MemberKind(type)
            if this == .sidecar { return false }
            if let kind, kind != this { return false }
            kind = this
        }
        return true
    }

    /// Which photo of a group is shown: the lower rank.
    static func rank(_ type: PhotoType, _ shown: GroupSettings.Shown) -> Int {
        switch (MemberKind(type), shown) {
        case (.rendered, .rendered), (.raw, .raw): 0
        case (.raw, .rendered), (.rendered, .raw): 1
        default: 2
        }
    }
}
