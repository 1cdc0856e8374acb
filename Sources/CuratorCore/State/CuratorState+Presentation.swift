// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Photos as clients see them, from the index and the roots' settings.
extension CuratorState {
    func wirePath(_ path: ByteString) -> WirePath { WirePath(path) }

    /// A photo as clients see it; with `fields`, what is not asked for is left
    /// empty and not computed (a listing of every photo by path is cheap).
    func summary(_ photo: Photo, position: Int? = nil, selected: Int? = nil, fields: PhotoFields = .all,
                 facts: RootFacts? = nil) -> PhotoSummary {
        let facts = facts ?? roots.facts
        let path = fields.contains(.path) ? wirePath(library.relativePath(of: photo)) : WirePath(path: "")
        let offline = facts.offline.contains(photo.rootID)
        let protected = fields.contains(.protected) && facts.mayProtect.contains(photo.rootID) && isProtected(photo)
        let members = fields.contains(.members) ? library.members(ofGroupShownBy: photo) : nil
        let captured = fields.contains(.captureTime)
            ? GroupMembers.captureSource(of: photo, members: members ?? library.members(ofGroupShownBy: photo)) : nil
        var summary = PhotoSummary(position: position, id: photo.groupID, root: fields.contains(.root) ? rootName(photo.rootID) : "",
                            path: path.path, pathRaw: path.pathRaw,
                            size: photo.size, mtimeNs: photo.identity.mtimeNs, type: fields.contains(.type) ? photo.type.wireName : "",
                            captureTime: captured?.capture.seconds.map { CaptureTime(seconds: $0).wire },
                            protected: protected ? true : nil, offline: offline ? true : nil, selected: selected,
                            thumbnail: fields.contains(.thumbnail) && thumbnails.isReady(photo.id) ? true : nil,
                            kind: members == nil ? nil : MemberKind(photo.type).rawValue,
                            members: members.map { files in files.filter { $0.id != photo.id }.map(groupMember) },
                            totalSize: members.map(GroupMembers.totalSize),
                            captureMs: captured?.captureDetail.milliseconds, captureOffset: captured?.captureDetail.offsetWire)
        if fields.contains(.marks) { summary.setMarks(marks.marks(ofGroup: photo.groupID)) }
        return summary
    }

    /// One of a group's other files, as a photo's record shows it: by its name
    /// (a group is of one folder, the record's).
    func groupMember(_ photo: Photo) -> GroupMemberSummary {
        let name = WirePath(photo.name)
        return GroupMemberSummary(kind: MemberKind(photo.type).rawValue, name: name.path, nameRaw: name.pathRaw,
                                  size: photo.size, type: photo.type.wireName)
    }

    /// One file of a delete plan's step, by its path.
    func planFile(_ photo: Photo) -> PlanFile {
        let path = wirePath(library.relativePath(of: photo))
        return PlanFile(kind: MemberKind(photo.type).rawValue, path: path.path, pathRaw: path.pathRaw,
                        size: photo.size, type: photo.type.wireName)
    }

    /// Whether a photo is protected by its root's settings (`RootRegistry.isProtected`).
    func isProtected(_ photo: Photo) -> Bool {
        roots.isProtected(photo, folderPath: library.folders[photo.folderID]?.path ?? .empty)
    }
}

extension WirePath {
    /// A path as clients get it: as text when it is UTF-8, else as lossy text and
    /// the exact bytes in base64.
    init(_ path: ByteString) {
        if let text = path.utf8String {
            self.init(path: text)
        } else {
            self.init(path: path.lossyString, pathRaw: path.base64)
        }
    }
}
