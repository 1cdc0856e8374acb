// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import FoundationEssentials
import Glibc

/// `photo.open`: one photo's thumbnail, previews or file, open for reading, passed
/// with the answer. Who may have it is decided as `thumbnail` decides: a photo the
/// caller may not see is `no_such_photo`, one it sees but may not read is
/// `permission_denied`, and the photo is opened for that caller, from its root down
/// without following a symlink. A thumbnail or preview not made yet is `pending`
/// (queued, as `thumbnail` queues it), with no descriptor.
enum PhotoOpenCommand: CommandHandler {
    /// What a browser shows as it is: these are their own preview.
    static let browserTypes: [PhotoType: String] = [
        .jpeg: "image/jpeg", .png: "image/png", .webp: "image/webp", .gif: "image/gif", .avif: "image/avif",
    ]

    struct Place {
        var row: Int64
        var root: ByteString
        var relative: ByteString
        var type: PhotoType
    }

    static func respond(to args: PhotoOpenRequest, id: RequestID?, caller: Caller, curator: Curator,
                        send: (Curator.Answer) -> Void) throws {
        guard let photoID = args.photo else {
            throw ProtocolError(.invalidArgument, "Say which photo: \"photo\" (an id).", argument: "photo")
        }
        guard let what = args.what else {
            throw ProtocolError(.invalidArgument, "Say what to open: \"what\" (normal, large, x-large, xx-large, screen, preview or original).",
                                argument: "what")
        }
        let (cacheRoot, place) = try curator.withState { (state) throws(ProtocolError) -> (ByteString?, Place) in
            // A photo the caller may not see does not exist for them.
            guard let photo = state.library.listed(photoID), state.maySee(photo, uid: caller.uid),
                  let root = state.roots[photo.rootID] else {
                throw ProtocolError(.noSuchPhoto, "No photo has the id \(photoID).", photos: [photoID])
            }
            return (state.config.thumbnailCache,
                    Place(row: photo.id, root: root.config.path, relative: state.library.relativePath(of: photo), type: photo.type))
        }
        let requester = caller.uid == geteuid() ? nil : Requester.resolving(uid: caller.uid, gid: caller.credentials.gid)
        let opened: OpenedPhoto
        do throws(PhotoReadFailure) {
            opened = try PhotoReadAccess.open(root: place.root, relative: place.relative, for: requester)
        } catch {
            if case .refused = error {
                throw ProtocolError(.permissionDenied, "uid \(caller.uid) may not read photo \(photoID).", photos: [photoID])
            }
            return send(.line(line(id, PhotoOpenResult(photo: photoID, what: what, state: .failed, reason: "unreadable: the photo is not there"))))
        }
        let photoFile = PassedFile(opened.descriptor)
        let status = opened.status
        guard status.isRegularFile else {
            return send(.line(line(id, PhotoOpenResult(photo: photoID, what: what, state: .failed, reason: "not a regular file"))))
        }
        let version = "\(status.mtimeNanoseconds)-\(max(0, status.size))"
        if case .screen = what, let cacheRoot, Self.hasScreenPreview(place.type),
           let found = preview(of: place, photoID: photoID, kind: .screen, answering: what, status: status, cache: ThumbnailCache(root: cacheRoot),
                               version: version, curator: curator) {
            return send(reply(id, found))
        }
        let size: ThumbnailSize
        switch what {
        case .original:
            let result = PhotoOpenResult(photo: photoID, what: what, state: .ready, contentType: contentType(of: place.type), version: version)
            return send(.passing(line(id, result), photoFile))
        case .preview, .screen:
            // No screen preview of this photo: the preview stands in.
            if let type = browserTypes[place.type] {
                let result = PhotoOpenResult(photo: photoID, what: what, state: .ready, contentType: type, version: version)
                return send(.passing(line(id, result), photoFile))
            }
            size = .xxLarge
        case .thumbnail(let asked):
            size = asked
        }
        guard place.type.family != .video else {
            return send(.line(line(id, PhotoOpenResult(photo: photoID, what: what, state: .failed, reason: "curatord makes no thumbnail of a video"))))
        }
        guard let cacheRoot else {
            throw ProtocolError(.thumbnailsOff, "This curatord makes no thumbnails (\"thumbnails\": false in its configuration).")
        }
        let cache = ThumbnailCache(root: cacheRoot)
        let answer: (result: PhotoOpenResult, file: PassedFile?)
        if what == .preview || what == .screen,
           let found = preview(of: place, photoID: photoID, kind: .full, answering: what, status: status, cache: cache, version: version, curator: curator) {
            answer = found
        } else {
            answer = thumbnail(of: place, photoID: photoID, what: what, status: status, size: size, cache: cache, version: version)
            if case .pending = answer.result.state {
                curator.withState { state in state.thumbnails.ask(place.row, root: state.library.photo(place.row)?.rootID ?? 0, size: size) }
                curator.ringThumbnailDoorbell()
            }
        }
        send(reply(id, answer))
    }

    /// The answer's line, with its file when one is passed.
    private static func reply(_ id: RequestID?, _ answer: (result: PhotoOpenResult, file: PassedFile?)) -> Curator.Answer {
        guard let file = answer.file else { return .line(line(id, answer.result)) }
        return .passing(line(id, answer.result), file)
    }

    /// The cached thumbnail of the photo as it is now (`status`), open, or why not.
    private static func thumbnail(of place: Place, photoID: Int64, what: PhotoOpenWhat, status: FileStatus, size: ThumbnailSize,
                                  cache: ThumbnailCache, version: String) -> (result: PhotoOpenResult, file: PassedFile?) {
        let pending = PhotoOpenResult(photo: photoID, what: what, state: .pending)
        guard let uri = try? FileURI(path: place.root.appending(place.relative)) else {
            return (PhotoOpenResult(photo: photoID, what: what, state: .failed, reason: "unreadable: the photo is not there"), nil)
        }
        let subject = ThumbnailSubject(uri: uri, mtime: status.mtimeNanoseconds.floorDividedBySecond, size: UInt64(max(0, status.size)))
        guard let directory = try? ThumbnailDirectory.open(cache, create: false) else { return (pending, nil) }
        guard case .valid = (try? directory.lookup(subject, size: size)) ?? .missing else {
            if let reason = try? directory.failRecord(for: subject) {
                return (PhotoOpenResult(photo: photoID, what: what, state: .failed, reason: reason), nil)
            }
            return (pending, nil)
        }
        // The cache is the daemon's own; the name is opened as the lookup read it.
        guard let fd = try? FileDescriptor.open(ThumbnailCache.relativePath(for: uri, size: size),
                                                O_RDONLY | O_NONBLOCK | curator_O_NOFOLLOW, relativeTo: directory.descriptor) else {
            return (pending, nil)  // replaced or removed since the lookup: made again
        }
        let file = PassedFile(fd)
        guard (try? FileStatus.of(descriptor: fd))?.isRegularFile == true else { return (pending, nil) }
        return (PhotoOpenResult(photo: photoID, what: what, state: .ready, contentType: "image/png", version: version), file)
    }

    static func contentType(of type: PhotoType) -> String {
        if let known = browserTypes[type] { return known }
        switch type {
        case .heic: return "image/heic"
        case .tiff: return "image/tiff"
        case .dng: return "image/x-adobe-dng"
        case .mp4: return "video/mp4"
        case .mov: return "video/quicktime"
        default: return "application/octet-stream"
        }
    }

    private static func line(_ id: RequestID?, _ result: PhotoOpenResult) -> [UInt8] {
        [UInt8](Wire.success(id: id, result: result))
    }
}
