// SPDX-License-Identifier: GPL-2.0-or-later
import CInotifyTools
import CuratorSystem

/// Turns kernel events into hints, and keeps the watch table right as directories
/// move: the pure part of the inotify source, testable without the kernel. It
/// stats nothing and knows nothing of the index.
struct InotifyTranslator {
    var table = WatchTable()
    /// Directory MOVED_FROM halves by cookie, so that the watches below a directory
    /// renamed inside its root follow it at once: later events in it then carry the
    /// new path. (The index is the crawler's to update, when it pairs the hints.)
    private var directoryMoves: [UInt32: (root: Int32, path: ByteString, seenAt: UInt64)] = [:]
    /// A MOVED_FROM still unpaired after this long went out of the roots.
    static let directoryMoveLifetimeNs: UInt64 = 5_000_000_000

    enum Output: Equatable {
        case hint(Hint)
        /// The kernel queue overflowed: events were lost.
        case overflow
        /// The kernel dropped the watch `wd` (IN_IGNORED): the library must forget it
        /// too; `hint` is set when it was a root's own watch.
        case watchDropped(wd: Int32, hint: Hint?)
        case nothing
    }

    mutating func translate(_ event: InotifyEvent, now: UInt64) -> Output {
        if event.has(IN_Q_OVERFLOW) { return .overflow }
        if event.has(IN_IGNORED) {
            let entry = table.remove(wd: event.wd)
            return .watchDropped(wd: event.wd, hint: entry.flatMap { $0.path.isEmpty ? Hint(root: $0.rootID, kind: .rootChanged) : nil })
        }
        guard let entry = table.entry(event.wd) else { return .nothing }
        let root = entry.rootID
        if event.has(IN_UNMOUNT) || (entry.path.isEmpty && (event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF))) {
            return .hint(Hint(root: root, kind: .rootChanged))
        }
        // Events of a folder itself: its parent's watch reports what matters, except
        // for the root's own folder, whose mode decides who may read the root.
        if event.name.isEmpty {
            guard entry.path.isEmpty, event.has(IN_ATTRIB) else { return .nothing }
            return .hint(Hint(root: root, kind: .path(.empty, .directoryAttributes)))
        }
        let path = entry.path.appending(event.name)

        if !event.isDirectory && entry.path.isEmpty && WatcherInbox.isCookie(event.name) {
            return event.has(IN_CREATE) ? .hint(Hint(root: root, kind: .cookie(event.name))) : .nothing
        }
        if event.has(IN_MOVED_FROM) {
            var identity: WatchTable.DirectoryKey?
            if event.isDirectory {
                forgetOldMoves(now: now)
                directoryMoves[event.cookie] = (root, path, now)
                identity = table.wd(root: root, path: path).flatMap { table.directory($0) }
            }
            return .hint(Hint(root: root, kind: .movedFrom(path, cookie: event.cookie, isDirectory: event.isDirectory,
                                                           identity: identity)))
        }
        if event.has(IN_MOVED_TO) {
            if event.isDirectory, let from = directoryMoves.removeValue(forKey: event.cookie), from.root == root {
                table.move(root: root, from: from.path, to: path)
            }
            return .hint(Hint(root: root, kind: .movedTo(path, cookie: event.cookie, isDirectory: event.isDirectory)))
        }
        let flags: HintFlags
        if event.isDirectory {
            if event.has(IN_CREATE) {
                flags = .directoryCreated
            } else if event.has(IN_DELETE) {
                flags = .directoryDeleted
            } else if event.has(IN_ATTRIB) {
                flags = .directoryAttributes
            } else {
                return .nothing
            }
        } else if event.has(IN_CREATE) {
            flags = .awaitingClose
        } else if event.has(IN_CLOSE_WRITE) {
            flags = .written
        } else if event.has(IN_ATTRIB) {
            flags = .attributes
        } else if event.has(IN_DELETE) {
            flags = .deleted
        } else {
            return .nothing
        }
        return .hint(Hint(root: root, kind: .path(path, flags)))
    }

    /// The library was started afresh: every watch and pending half is gone.
    mutating func reset() {
        table.removeAll()
        directoryMoves.removeAll()
    }

    private mutating func forgetOldMoves(now: UInt64) {
        guard directoryMoves.count > 64 else { return }
        directoryMoves = directoryMoves.filter { now < $0.value.seenAt + Self.directoryMoveLifetimeNs }
    }
}
