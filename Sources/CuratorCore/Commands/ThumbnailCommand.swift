// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import FoundationEssentials
import Glibc

/// `thumbnail`: each photo's thumbnail at a size, ready (its path, and its bytes
/// when asked), failed, or pending (queued before the background's; a `thumbnail`
/// event follows). The cache is looked at here, outside the lock; only the
/// photos' places are read under it.
enum ThumbnailCommand: CuratorCommand {
    /// The largest thumbnail sent as bytes (an xx-large PNG is about 1.5 MB).
    static let maxDataBytes = 8 << 20

    private struct Place {
        /// The id the client named (a group's, issue 15).
        var id: Int64
        /// The row of the file shown for it, whose thumbnail it is.
        var row: Int64
        var root: ByteString
        var relative: ByteString
        var isVideo: Bool
    }

    static func run(_ args: ThumbnailRequest, curator: any PhotoScope, caller: Caller) throws -> ThumbnailsResult {
        let ids = args.photoIDs
        guard !ids.isEmpty else {
            throw ProtocolError(.invalidArgument, "Say which photos: \"photo\" (an id) or \"ids\".", argument: "photo")
        }
        guard ids.count <= ThumbnailRequest.maxPhotos else {
            throw ProtocolError(.invalidArgument, "At most \(ThumbnailRequest.maxPhotos) photos per request.", argument: "ids")
        }
        let size = args.size ?? .normal
        let (cacheRoot, places) = try curator.withPhotos { (state) throws(ProtocolError) -> (ByteString?, [Place]) in
            var unknown: [Int64] = []
            let places = ids.compactMap { id -> Place? in
                // A photo the caller may not see does not exist for them (issue 13).
                guard let photo = state.library.listed(id), state.maySee(photo, uid: caller.uid),
                      let root = state.roots[photo.rootID] else {
                    unknown.append(id)
                    return nil
                }
                return Place(id: id, row: photo.id, root: root.config.path, relative: state.library.relativePath(of: photo),
                             isVideo: photo.type.family == .video)
            }
            guard unknown.isEmpty else {
                throw ProtocolError(.noSuchPhoto, "No photo has the id \(unknown.map(String.init).joined(separator: ", ")).", photos: unknown)
            }
            return (state.config.thumbnailCache, places)
        }
        guard let cacheRoot else {
            throw ProtocolError(.thumbnailsOff, "This curatord makes no thumbnails (\"thumbnails\": false in its configuration).")
        }
        // The daemon's own user reads its own cache by path; another user (under the
        // system service) gets bytes only, and only of photos it may read itself: one
        // it sees (its folder it may list) but may not open is refused. The photo is
        // opened once, for that user, and the cache is asked about that very file.
        let sameUser = caller.uid == geteuid()
        let requester = sameUser ? nil : Requester.resolving(uid: caller.uid, gid: caller.credentials.gid)
        var found: [Int64: FileStatus] = [:]
        var refused: [Int64] = []
        for place in places where !place.isVideo || !sameUser {
            do throws(PhotoReadFailure) {
                let photo = try PhotoReadAccess.open(root: place.root, relative: place.relative, for: requester)
                try? photo.descriptor.close()  // read only
                found[place.id] = photo.status
            } catch {
                // Not there, or not a file: said so below.
                if case .refused = error { refused.append(place.id) }
            }
        }
        guard refused.isEmpty else {
            throw ProtocolError(.permissionDenied, "uid \(caller.uid) may not read photo \(refused.map(String.init).joined(separator: ", ")).",
                                photos: refused)
        }
        let cache = ThumbnailCache(root: cacheRoot)
        let directory = try? ThumbnailDirectory.open(cache, create: false)
        var entries: [ThumbnailEntry] = []
        var pending: [Int64] = []
        for place in places {
            if place.isVideo {
                entries.append(ThumbnailEntry(photoId: place.id, state: .placeholder))
                continue
            }
            let entry = look(place, status: found[place.id], size: size, cache: cache, directory: directory, withPath: sameUser,
                             withData: args.data == true)
            if entry.state == .pending { pending.append(place.row) }
            entries.append(entry)
        }
        if !pending.isEmpty {
            curator.withPhotos { state in
                for id in pending { state.thumbnails.ask(id, root: state.library.photo(id)?.rootID ?? 0, size: size) }
            }
            curator.ringThumbnailDoorbell()
        }
        return ThumbnailsResult(size: size, thumbnails: entries)
    }

    /// What the cache holds for one photo as it is on disk now (`status`: the file
    /// opened for the caller, nil when it could not be).
    private static func look(_ place: Place, status: FileStatus?, size: ThumbnailSize, cache: ThumbnailCache, directory: ThumbnailDirectory?,
                             withPath: Bool, withData: Bool) -> ThumbnailEntry {
        let absolute = place.root.appending(place.relative)
        guard let status, status.isRegularFile, let uri = try? FileURI(path: absolute) else {
            return ThumbnailEntry(photoId: place.id, state: .failed, reason: "unreadable: the photo is not there")
        }
        let subject = ThumbnailSubject(uri: uri, mtime: status.mtimeNanoseconds.floorDividedBySecond, size: UInt64(max(0, status.size)))
        guard let directory else { return ThumbnailEntry(photoId: place.id, state: .pending) }
        if case .valid(let width, let height) = (try? directory.lookup(subject, size: size)) ?? .missing {
            let path = cache.path(for: uri, size: size)
            var entry = ThumbnailEntry(photoId: place.id, state: .ready, width: width, height: height)
            if withPath {
                let wire = WirePath(path)
                entry.path = wire.path
                entry.pathRaw = wire.pathRaw
            }
            if withData {
                do {
                    let bytes = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | curator_O_NOFOLLOW).closeAfter { (fd) throws(SystemError) in
                        try fd.readAll(limit: maxDataBytes, path: path.lossyString)
                    }
                    entry.data = Data(bytes).base64EncodedString()
                } catch {
                    // Replaced or removed since the lookup: make it again.
                    return ThumbnailEntry(photoId: place.id, state: .pending)
                }
            }
            return entry
        }
        if let reason = try? directory.failRecord(for: subject) {
            return ThumbnailEntry(photoId: place.id, state: .failed, reason: reason)
        }
        return ThumbnailEntry(photoId: place.id, state: .pending)
    }
}
