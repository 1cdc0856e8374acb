// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Synchronization

/// What the daemon repaired of the trash folders that are its to make: a `.recycle`,
/// a `.recycle/<user>` or a `.Trash-$uid` that someone else made first, or replaced
/// (theirs, a symlink, a file), is moved aside and made anew, so that one family
/// member cannot stop everyone's (or one user's) deletes until an administrator
/// cleans up. `status` lists the last few (`trash_repairs`), newest last, and the
/// log has each. Shared by every batch's threads.
final class TrashRepairs: Sendable {
    static let shared = TrashRepairs()
    static let kept = 20

    private let recent = Mutex<[String]>([])

    var all: [String] { recent.withLock { $0 } }

    /// Moves `name` in `parent` aside (to `<name>.moved-<random>`, its contents
    /// untouched), says why, and returns the name it was given.
    @discardableResult
    func moveAside(_ name: ByteString, in parent: DirectoryHandle, because why: String) throws(SystemError) -> ByteString {
        let aside = ByteString(name.bytes + Array(".moved-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))".utf8))
        do {
            try parent.rename(name, to: parent, as: aside, noReplace: true)
        } catch where error.errno == .invalid {
            try parent.rename(name, to: parent, as: aside, noReplace: false)  // a random name: nothing to replace
        }
        let message = "\(LocalTime.now().rfc3339Text) \(parent.path.appending(name).lossyString) \(why): "
            + "moved aside to \(aside.lossyString) and made anew"
        log.warning(message)
        recent.withLock { list in
            list.append(message)
            if list.count > Self.kept { list.removeFirst(list.count - Self.kept) }
        }
        return aside
    }
}
