// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorXMP
import Glibc

/// `photo.info`: one photo's record and what its file says when asked (camera,
/// lens, exposure, pixel size, orientation). The photo is looked up under the lock, with
/// the caller's visibility; the file is read outside it, on this client's thread,
/// and only when the caller may read it themselves.
enum PhotoInfoCommand: CuratorCommand {
    private struct Place {
        var summary: PhotoSummary
        var root: ByteString
        var relative: ByteString
        var offline: Bool
        var unresponsive: Bool
        var files: MarkedFiles
    }

    static func run(_ args: PhotoInfoRequest, curator: any PhotoScope, caller: Caller) throws -> PhotoInfoResult {
        guard let id = args.photo else {
            throw ProtocolError(.invalidArgument, "Say which photo: \"photo\" (an id).", argument: "photo")
        }
        let place = try curator.withPhotos { (state) throws(ProtocolError) -> Place in
            // A photo the caller may not see does not exist for them.
            // The id a listing gave: a group's is answered with the file shown for it (issue 15).
            guard let photo = state.library.listed(id), state.maySee(photo, uid: caller.uid), let root = state.roots[photo.rootID] else {
                throw ProtocolError(.noSuchPhoto, "No photo has the id \(id).", photos: [id])
            }
            return Place(summary: state.summary(of: photo), root: root.config.path, relative: state.library.relativePath(of: photo),
                         offline: !root.online, unresponsive: root.unresponsiveSince != nil,
                         files: state.markedFiles(of: photo))
        }
        var result = PhotoInfoResult(photo: place.summary)
        if place.offline || place.unresponsive {
            // Nothing is asked of a root that is gone or hangs (see `status`).
            result.unreadable = place.offline ? "offline: the root is unmounted or gone" : "offline: the root's file system does not answer"
            return result
        }
        // The system service reads for another user only what that user could read,
        // and reads the very file it checked.
        let requester = caller.uid == geteuid() ? nil : Requester.resolving(uid: caller.uid, gid: caller.credentials.gid)
        var mayReadPhoto = true
        do throws(PhotoReadFailure) {
            let photo = try PhotoReadAccess.open(root: place.root, relative: place.relative, for: requester)
            defer { try? photo.descriptor.close() }  // read only
            let facts: PhotoFacts
            do { facts = try PhotoFactsReader.read(photo, path: place.root.appending(place.relative)) } catch { throw .failed(error) }
            result.cameraMake = facts.make
            result.cameraModel = facts.model
            result.lens = facts.lens
            result.width = facts.width
            result.height = facts.height
            result.orientation = facts.orientation
            result.exposureTime = facts.exposureTime
            result.fNumber = facts.fNumber
            result.iso = facts.iso
            result.focalLength = facts.focalLength
        } catch {
            guard case .failed(let error) = error else {
                throw ProtocolError(.permissionDenied, "uid \(caller.uid) may not read photo \(id).", photos: [id])
            }
            result.unreadable = (error.errno == .noEntry ? "not_there: " : "unreadable: ") + "\(error)"
            mayReadPhoto = requester == nil
        }
        // Marks only for a caller who could read the photo itself (its folders
        // searched, its file and ACL checked above), and each sidecar by its mode.
        if mayReadPhoto { result.marks = Self.marks(place, requester) }
        return result
    }

    /// The marks its sidecars say now (docs/XMP.md); nil when one cannot be read,
    /// by curatord or (the system service's callers) by the caller themselves.
    private static func marks(_ place: Place, _ requester: Requester?) -> PhotoMarksValue? {
        guard let path = PhotoPath(root: place.root, relative: place.relative) else { return nil }
        do {
            let (parent, _) = try path.openParent(from: try DirectoryHandle.open(place.root, followingSymlinks: true))
            let found = try place.files.readMarks(in: parent) { status in
                requester.map { AccessRule.permits(FolderPermissions(status, acl: nil), $0, AccessRule.read) } ?? true
            }
            guard let marks = found else { return nil }
            return PhotoMarksValue(rating: marks.rating, flag: marks.flag.rawValue, label: marks.label?.rawValue)
        } catch {
            return nil
        }
    }
}
