// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// What the process may do to other users' files: whether it can make a trash
/// directory or a `.trashinfo` belong to the user it trashes for (chown), write into
/// that user's private directories, and set their modes. Root may; so may a service
/// user given CAP_CHOWN, CAP_DAC_OVERRIDE and CAP_FOWNER (the system unit's
/// `AmbientCapabilities=`). Read once from the effective capability set in
/// /proc/self/status (no libcap for three bits).
public struct FilePrivilege: Hashable, Sendable, CustomStringConvertible {
    /// CAP_CHOWN: files may be given to another user.
    public var mayChown: Bool
    /// CAP_DAC_OVERRIDE: any directory may be written (another user's 0700 trash).
    public var mayOverridePermissions: Bool
    /// CAP_FOWNER: another user's directory may be chmod'ed (a trash set back to 0700).
    public var mayActAsOwner: Bool

    public init(mayChown: Bool, mayOverridePermissions: Bool, mayActAsOwner: Bool) {
        self.mayChown = mayChown
        self.mayOverridePermissions = mayOverridePermissions
        self.mayActAsOwner = mayActAsOwner
    }

    /// All three: trash may be made for any user, owned by that user.
    public var mayActForOthers: Bool { mayChown && mayOverridePermissions && mayActAsOwner }

    /// The capabilities missing for `mayActForOthers`, by their names.
    public var missing: [String] {
        [(mayChown, "CAP_CHOWN"), (mayOverridePermissions, "CAP_DAC_OVERRIDE"), (mayActAsOwner, "CAP_FOWNER")]
            .filter { !$0.0 }.map(\.1)
    }

    public var description: String {
        mayActForOthers ? "may act for other users" : "lacks \(missing.joined(separator: ", "))"
    }

    /// This process's, read once.
    public static let current: FilePrivilege = read()

    static func read(statusPath: ByteString = "/proc/self/status") -> FilePrivilege {
        let text: String
        do {
            let fd = try FileDescriptor.open(statusPath, O_RDONLY)
            text = String(decoding: try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll(limit: 1 << 16) }, as: UTF8.self)
        } catch {
            // No /proc: only root is known to be privileged.
            let root = geteuid() == 0
            return FilePrivilege(mayChown: root, mayOverridePermissions: root, mayActAsOwner: root)
        }
        return parse(status: text, euid: geteuid())
    }

    /// From /proc/PID/status text: the `CapEff:` mask (bits 0, 1 and 3).
    static func parse(status text: String, euid: UInt32) -> FilePrivilege {
        for line in text.split(separator: "\n") where line.hasPrefix("CapEff:") {
            let hex = line.dropFirst("CapEff:".count).trimmingPrefix { $0 == " " || $0 == "\t" }
            guard let mask = UInt64(hex, radix: 16) else { break }
            return FilePrivilege(mayChown: mask & (1 << 0) != 0, mayOverridePermissions: mask & (1 << 1) != 0,
                                 mayActAsOwner: mask & (1 << 3) != 0)
        }
        let root = euid == 0
        return FilePrivilege(mayChown: root, mayOverridePermissions: root, mayActAsOwner: root)
    }
}
