// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// Where the home trash is and whose it is. Injected, so that tests use a trash of
/// their own and never the user's.
public struct TrashConfiguration: Hashable, Sendable {
    /// `$XDG_DATA_HOME/Trash`; nil when there is no home trash to use (a system service).
    public var homeTrash: ByteString?
    /// The uid whose home trash it is: only that user's photos go there.
    public var homeTrashOwner: UInt32

    public init(homeTrash: ByteString?, homeTrashOwner: UInt32) {
        self.homeTrash = homeTrash
        self.homeTrashOwner = homeTrashOwner
    }

    /// The home trash of the user the daemon runs as, as the XDG base directory and
    /// trash specs say: `$XDG_DATA_HOME/Trash`, else `$HOME/.local/share/Trash`.
    /// Relative values are ignored, as the base directory spec asks.
    public static func forCurrentUser(environment: [String: String]) -> TrashConfiguration {
        let uid = geteuid()
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return TrashConfiguration(homeTrash: ByteString(data).appending("Trash"), homeTrashOwner: uid)
        }
        let home: ByteString? = environment["HOME"].flatMap { $0.hasPrefix("/") ? ByteString($0) : nil }
            ?? UserAccount.homeDirectory(uid: uid)
        return TrashConfiguration(homeTrash: home?.appending(".local/share/Trash"), homeTrashOwner: uid)
    }
}
