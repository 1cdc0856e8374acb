// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorXMP
import Glibc

/// `rate`: stars, flag and colour label written into each photo's XMP sidecars
/// (docs/XMP.md), every sidecar of its group that is about it: the file's own
/// (`NAME.EXT.xmp`) and the shot's (`NAME.xmp`); one is created where there is
/// none. The photos are found under the lock with the caller's visibility; the
/// sidecars are written outside it, on this client's thread, after the caller's
/// right to write beside every photo was checked (as deleting needs).
enum RateCommand: CuratorCommand {
    /// A photo to rate, as the lock saw it.
    struct Target {
        var id: Int64
        var root: ByteString
        /// The photo shown for the group, relative to the root.
        var relative: ByteString
        /// The group's photos and the sidecars about them.
        var files: MarkedFiles
        /// The root's `xmp_write_embedded`: the images' own XMP is written too.
        var writeEmbedded: Bool
    }

    static func run(_ args: RateRequest, curator: any PhotoScope, caller: Caller) throws -> RateResult {
        let change = try Self.change(args)
        let targets = try curator.withPhotos { (state) throws(ProtocolError) -> [Target] in try Self.targets(args, state, caller) }
        let requester = caller.uid != geteuid() ? Requester.resolving(uid: caller.uid, gid: caller.credentials.gid) : nil
        // Every photo's folder checked before any sidecar is written.
        let places = try targets.map { target throws(ProtocolError) in try Self.open(target, requester) }
        var rated: [RateResult.Rated] = []
        for (target, parent) in zip(targets, places) {
            let (answer, marks, sidecars) = try writing.withLocks(Self.writtenPaths(target, in: parent)) { () throws(ProtocolError) in
                try Self.rate(target, in: parent, change)
            }
            rated.append(answer)
            // Listings show it now, before the watcher sees the sidecars change.
            curator.withPhotos { $0.noteRated(marks, ofGroup: target.id, sidecars: sidecars) }
        }
        return RateResult(photos: rated)
    }

    /// A sidecar has one temporary name (so that what a crash leaves is found by
    /// it), which two writers of that sidecar would share: they take turns on it,
    /// and only on it, so that one client's write held by a hung share never keeps
    /// another's, elsewhere, waiting. Not the state lock: the writes are file I/O.
    private static let writing = SidecarLocks()

    /// The files a rate of `target` may write: the sidecars it has, or the one it
    /// gets, and with `xmp_write_embedded` its images (their private folder's name
    /// is theirs alone, as a sidecar's temporary name is).
    static func writtenPaths(_ target: Target, in parent: DirectoryHandle) -> [ByteString] {
        let names = target.files.sidecars.isEmpty ? [Self.newSidecarName(target)] : target.files.sidecars
        return (names + (target.writeEmbedded ? target.files.embedding : [])).map { parent.path.appending($0) }
    }

    /// The sidecar most tools read, for a photo that has none (docs/XMP.md).
    static func newSidecarName(_ target: Target) -> ByteString {
        target.files.raw.map { SidecarName.forNewSidecar(of: $0, isRaw: true) }
            ?? SidecarName.forNewSidecar(of: target.relative.lastComponent, isRaw: false)
    }

    /// The request as a change of marks; rating -1 is a reject.
    static func change(_ args: RateRequest) throws(ProtocolError) -> MarksChange {
        var flag: PickFlag?
        if let name = args.flag {
            guard let parsed = PickFlag(rawValue: name) else {
                throw ProtocolError(.invalidArgument, "flag must be \"pick\", \"reject\" or \"none\", not \"\(name)\".", argument: "flag")
            }
            flag = parsed
        }
        var rating: MarksChange.Setting<Int>?
        switch args.rating {
        case .unchanged: rating = nil
        case .cleared: rating = .cleared
        case .value(-1):
            guard flag == nil || flag == .reject else {
                throw ProtocolError(.invalidArgument, "rating -1 is a reject; flag says \(args.flag ?? "")", argument: "rating")
            }
            flag = .reject
        case .value(let stars):
            guard (0...5).contains(stars) else {
                throw ProtocolError(.invalidArgument, "rating must be -1 (rejected) to 5, or null; not \(stars).", argument: "rating")
            }
            rating = .set(stars)
        }
        var label: MarksChange.Setting<ColorLabel>?
        switch args.label {
        case .unchanged: label = nil
        case .cleared: label = .cleared
        case .value(let name):
            guard let colour = ColorLabel(rawValue: name) else {
                let names = ColorLabel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw ProtocolError(.invalidArgument, "label must be one of \(names) or null, not \"\(name)\".", argument: "label")
            }
            label = .set(colour)
        }
        guard rating != nil || flag != nil || label != nil else {
            throw ProtocolError(.invalidArgument, "Say what to change: \"rating\", \"flag\" or \"label\".", argument: "rating")
        }
        return MarksChange(rating: rating, flag: flag, label: label)
    }

    /// The photos named (or the session's selection), with their groups' files.
    static func targets(_ args: RateRequest, _ state: any PhotoLookupScope, _ caller: Caller) throws(ProtocolError) -> [Target] {
        let ids: [Int64]
        if args.positions != nil && args.ids != nil {
            throw ProtocolError(.invalidArgument, "Name the photos one way: ids or positions.", argument: "positions")
        }
        if let text = args.positions {
            // As `select` reads them, in the session's view (at most max_selection of them).
            let key = try SessionKey.named(args.session, uid: caller.uid)
            let named = try state.resolveSelector(PhotoSelector(positions: text), view: state.session(key).view, uid: caller.uid)
            guard named.count <= state.config.maxSelection else {
                throw ProtocolError(.invalidArgument, "A rate may name at most \(state.config.maxSelection) photos (max_selection).",
                                    argument: "positions")
            }
            var seen = Set<Int64>()
            ids = named.filter { seen.insert($0).inserted }
        } else if let explicit = args.ids {
            guard !explicit.isEmpty else { throw ProtocolError(.emptySelection, "No photos were named.", argument: "ids") }
            guard explicit.count <= state.config.maxSelection else {
                throw ProtocolError(.invalidArgument, "A rate may name at most \(state.config.maxSelection) photos (max_selection).",
                                    argument: "ids")
            }
            var seen = Set<Int64>()
            ids = explicit.filter { seen.insert($0).inserted }
        } else {
            let key = try SessionKey.named(args.session, uid: caller.uid)
            ids = Array(state.session(key).selection.items)
            guard !ids.isEmpty else { throw ProtocolError(.emptySelection, "Nothing is selected.") }
        }
        var targets: [Target] = []
        var unknown: [Int64] = [], offline: [Int64] = []
        for id in ids {
            // A photo the caller may not see does not exist for them.
            guard let photo = state.library.listed(id), state.maySee(photo, uid: caller.uid), let root = state.roots[photo.rootID] else {
                unknown.append(id)
                continue
            }
            guard root.online, root.unresponsiveSince == nil else {
                offline.append(id)
                continue
            }
            targets.append(Target(id: id, root: root.config.path, relative: state.library.relativePath(of: photo),
                                  files: state.markedFiles(of: photo),
                                  writeEmbedded: root.config.xmpWriteEmbedded))
        }
        if !unknown.isEmpty {
            throw ProtocolError(.noSuchPhoto, "No photo has the id \(unknown.map(String.init).joined(separator: ", ")).", photos: unknown)
        }
        if !offline.isEmpty {
            throw ProtocolError(.rootOffline, "\(offline.count) photo(s) on a root that is offline (unmounted?).", photos: offline)
        }
        return targets
    }

    /// The photo's folder, once the caller may write in it (search on every folder
    /// from the root down, write and search on it).
    static func open(_ target: Target, _ requester: Requester?) throws(ProtocolError) -> DirectoryHandle {
        guard let path = PhotoPath(root: target.root, relative: target.relative) else {
            throw ProtocolError(.noSuchPhoto, "No photo has the id \(target.id).", photos: [target.id])
        }
        do throws(SystemError) {
            let top = try DirectoryHandle.open(target.root, followingSymlinks: true)
            let (parent, chain) = try path.openParent(from: top)
            if let requester, let folder = chain.last {
                guard AccessRule.maySearch(chain, requester), AccessRule.mayCreate(in: folder, requester) else {
                    throw SystemError("rate", path: path.absolute.parent.lossyString, errno: .accessDenied)
                }
            }
            return parent
        } catch where error.errno == .accessDenied || error.errno == .notPermitted {
            throw ProtocolError(.permissionDenied, "uid \(requester?.uid ?? geteuid()) may not write beside photo \(target.id) "
                                + "(in \(path.absolute.parent.lossyString)).", photos: [target.id])
        } catch {
            throw ProtocolError(.sidecarFailed, "photo \(target.id): \(error)", photos: [target.id])
        }
    }

    /// Writes the change into the photo's sidecars, or creates one: all of them or,
    /// when one fails, none (those already written are taken back).
    static func rate(_ target: Target, in parent: DirectoryHandle, _ change: MarksChange) throws(ProtocolError)
        -> (RateResult.Rated, PhotoMarks, sidecars: [(name: ByteString, marks: PhotoMarks?)]) {
        let writer = SidecarWriter()
        var before: [MarksSource] = [], after: [MarksSource] = []
        var sidecars: [(name: ByteString, marks: PhotoMarks?)] = []
        var written: [String] = [], images: [String] = []
        var undos: [(ByteString, SidecarWriter.Undo)] = []
        do throws(SidecarError) {
            if target.files.sidecars.isEmpty {
                let shown = target.relative.lastComponent
                let name = Self.newSidecarName(target)
                let photo: FileStatus
                do throws(SystemError) {
                    guard let status = try parent.status(of: shown) else {
                        throw SystemError("lstat", path: parent.path.appending(shown).lossyString, errno: .noEntry)
                    }
                    photo = status
                } catch {
                    throw SidecarError.system(error)
                }
                let outcome = try writer.create(name, in: parent, owner: (photo.uid, photo.gid), mode: photo.mode & 0o666,
                                                change: change)
                before.append(MarksSource(.fileSidecar, modified: 0, marks: outcome.previous == .unmarked ? nil : outcome.previous))
                after.append(MarksSource(.fileSidecar, modified: 0, marks: outcome.marks))
                sidecars.append((name, outcome.marks))
                if outcome.written { written.append(name.lossyString) }
                if let undo = outcome.undo { undos.append((name, undo)) }
            }
            for name in target.files.sidecars {
                let kind = target.files.kind(of: name)
                let modified: Int64
                do throws(SystemError) { modified = try parent.status(of: name)?.mtimeNanoseconds ?? 0 } catch { throw .system(error) }
                let outcome = try writer.update(name, in: parent, change: change)
                before.append(MarksSource(kind, modified: modified, marks: outcome.previous))
                after.append(MarksSource(kind, modified: 0, marks: outcome.marks))
                sidecars.append((name, outcome.marks))
                if outcome.written { written.append(name.lossyString) }
                if let undo = outcome.undo { undos.append((name, undo)) }
            }
            // The images last: what fails before them leaves them untouched.
            for name in target.writeEmbedded ? target.files.embedding : [] {
                guard let outcome = try EmbeddedWriter().update(name, in: parent, change: change) else { continue }
                before.append(MarksSource(.embedded, modified: 0, marks: outcome.previous == .unmarked ? nil : outcome.previous))
                after.append(MarksSource(.embedded, modified: 0, marks: outcome.marks))
                if outcome.written { images.append(name.lossyString) }
                if let undo = outcome.undo { undos.append((name, undo)) }
            }
        } catch {
            // The group is rated whole or not at all: what was written goes back
            // (where no other program has changed it since).
            var kept: [String] = []
            for (name, undo) in undos.reversed() {
                do throws(SidecarError) {
                    if try !writer.undo(undo, of: name, in: parent) { kept.append(name.lossyString) }
                } catch {
                    kept.append("\(name.lossyString) (\(error))")
                }
            }
            var failure = Self.protocolError(error, photo: target.id)
            if !kept.isEmpty { failure.message += "; not taken back: " + kept.joined(separator: ", ") }
            throw failure
        }
        let marks = MarksSource.resolve(after)
        return (RateResult.Rated(id: target.id, previous: Self.wire(MarksSource.resolve(before)), marks: Self.wire(marks),
                                 sidecars: written, images: images.isEmpty ? nil : images), marks, sidecars)
    }

    static func wire(_ marks: PhotoMarks) -> PhotoMarksValue {
        PhotoMarksValue(rating: marks.rating, flag: marks.flag.rawValue, label: marks.label?.rawValue)
    }

    static func protocolError(_ error: SidecarError, photo: Int64) -> ProtocolError {
        if case .system(let system) = error, [Errno.accessDenied, .notPermitted, .readOnly].contains(system.errno) {
            return ProtocolError(.permissionDenied, "photo \(photo): \(error)", photos: [photo])
        }
        return ProtocolError(.sidecarFailed, "photo \(photo): \(error)", photos: [photo])
    }
}
