// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// The original directories of an undo chunk's photos, opened from their roots
/// without following symlinks and recreated where they went away (owned by the
/// requester when we are root acting for someone else), with the requester's
/// permission checked. Each is walked once per chunk and shared by its photos.
final class RestoreParents {
    enum Opened {
        /// `recreated`: folders made for this photo (relative to the root);
        /// `changed`: the directories whose entries that changed.
        case opened(DirectoryHandle, recreated: [ByteString], changed: [DirectoryHandle])
        case refused(PhotoOutcome, String)
    }

    private let observer: DiskObserver
    private let requester: Requester
    private let effectiveUID: UInt32
    private let failpoints: Failpoints
    private var opened: [ByteString: DirectoryHandle] = [:]

    init(observer: DiskObserver, requester: Requester, effectiveUID: UInt32, failpoints: Failpoints = .disarmed) {
        self.observer = observer
        self.requester = requester
        self.effectiveUID = effectiveUID
        self.failpoints = failpoints
    }

    func open(_ path: PhotoPath) -> Opened {
        let key = path.absolute.parent
        if let known = opened[key] { return .opened(known, recreated: [], changed: []) }
        let root: DirectoryHandle
        do throws(SystemError) {
            root = try observer.roots.handle(path.root)
        } catch {
            return .refused(.error, "\(error.errno.name): the root \(path.root) cannot be opened")
        }
        var parent = root
        var chain: [FolderPermissions] = []
        var recreated: [ByteString] = []
        var changed: [DirectoryHandle] = []
        var below = ByteString.empty
        for component in path.directories {
            below = below.appending(component)
            switch openOrCreate(component, in: parent, chain: &chain) {
            case .opened(let next): parent = next
            case .created(let next):
                changed.append(parent)
                parent = next
                recreated.append(below)
            case .refused(let why): return .refused(.permissionDenied, why)
            case .replaced: return .refused(.conflict, "\(below.lossyString) was replaced while it was being recreated")
            case .blocked: return .refused(.conflict, "\(below.lossyString) is no longer a directory")
            case .failed(let error): return .refused(.error, error.errno.name)
            }
        }
        if requester.uid != effectiveUID {
            let parentStatus = try? FolderPermissions.read(parent)
            guard let parentStatus, AccessRule.maySearch(chain, requester), AccessRule.mayCreate(in: parentStatus, requester) else {
                return .refused(.permissionDenied, "uid \(requester.uid) may not create files in \(path.absolute.parent)")
            }
        }
        opened[key] = parent
        return .opened(parent, recreated: recreated, changed: changed)
    }

    private enum Step {
        case opened(DirectoryHandle)
        case created(DirectoryHandle)
        case refused(String)
        /// Something that is not a directory (or a symlink) stands there.
        case blocked
        /// Made, then found replaced before it was opened: nothing was given away.
        case replaced
        case failed(SystemError)
    }

    /// Opens a directory component without following symlinks, recreating it when it
    /// is missing (owned by the requester when we are root acting for someone else,
    /// given to them through its own descriptor: see `DirectoryHandle.makeDirectory(_:owner:mode:)`).
    private func openOrCreate(_ name: ByteString, in parent: DirectoryHandle, chain: inout [FolderPermissions]) -> Step {
        do throws(SystemError) {
            let status = try FolderPermissions.read(parent)
            chain.append(status)
            do {
                return .opened(try parent.openDirectory(name))
            } catch where error.errno == .noEntry {
                if requester.uid != effectiveUID, !AccessRule.mayCreate(in: status, requester) {
                    return .refused("uid \(requester.uid) may not recreate \(parent.path.appending(name))")
                }
                let owner = FilePrivilege.current.mayChown && requester.uid != effectiveUID ? (uid: requester.uid, gid: requester.gid) : nil
                switch try parent.makeDirectory(name, owner: owner, mode: nil, afterMaking: { try? failpoints.reach(.directoryMade) }) {
                case .made(let made): return .created(made)
                case .replaced: return .replaced
                // Made by someone else since the open: theirs, opened like any other.
                case .exists: return .opened(try parent.openDirectory(name))
                }
            }
        } catch {
            return error.errno == .tooManyLinks || error.errno == .notDirectory ? .blocked : .failed(error)
        }
    }

    /// renameat2(NOREPLACE); on a file system without it (EINVAL), link + unlink,
}
