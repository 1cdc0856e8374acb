// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// Facts about a Unix user that SO_PEERCRED does not give: its name, home and
/// supplementary groups, from the user database (getpwuid_r, reentrant).
public enum UserAccount {
    /// The user's groups from the group database (primary `gid` included), or just
    /// `[gid]` when the uid has no passwd entry.
    public static func groups(uid: UInt32, gid: UInt32) -> [UInt32] {
        guard let name = userName(uid: uid) else { return [gid] }
        var count: Int32 = 64
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            var asked = count
            let rc = name.withCString { getgrouplist($0, gid, &groups, &asked) }
            if rc >= 0 { return Array(groups.prefix(Int(asked))) }
            // -1 means the buffer was too small and `asked` holds the size needed.
            guard asked > count, asked < 65_536 else { return [gid] }
            count = asked
        }
    }

    /// The user's primary group from the user database.
    public static func primaryGroup(uid: UInt32) -> UInt32? {
        entry(uid: uid) { $0.pw_gid }
    }

    public static func userName(uid: UInt32) -> String? {
        entry(uid: uid) { entry in entry.pw_name.flatMap { String(validatingCString: $0) } } ?? nil
    }

    public static func homeDirectory(uid: UInt32) -> ByteString? {
        entry(uid: uid) { entry in
            entry.pw_dir.map { ByteString(bytes: UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        } ?? nil
    }

    /// A user's id by name (getpwnam_r); nil when there is none.
    public static func userID(named name: String) -> UInt32? {
        var size = 4096
        while size <= 1 << 20 {
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let rc = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return ENOMEM }
                return name.withCString { getpwnam_r($0, &entry, base, buffer.count, &result) }
            }
            if rc == ERANGE {
                size *= 2
                continue
            }
            return rc == 0 && result != nil ? entry.pw_uid : nil
        }
        return nil
    }

    /// A group's id by its name (getgrnam_r); nil when there is none.
    public static func groupID(named name: String) -> UInt32? {
        var size = 4096
        while size <= 1 << 20 {
            var entry = group()
            var result: UnsafeMutablePointer<group>?
            let rc = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return ENOMEM }
                return name.withCString { getgrnam_r($0, &entry, base, buffer.count, &result) }
            }
            if rc == ERANGE {
                size *= 2
                continue
            }
            return rc == 0 && result != nil ? entry.gr_gid : nil
        }
        return nil
    }

    /// Looks `uid` up and hands its entry to `read` while the buffer its strings
    /// point into is alive: `read` must copy what it keeps. The buffer starts at
    /// `bufferSize` bytes and doubles on ERANGE (a long GECOS field, many
    /// groups in an NSS module) up to 1 MiB. Nil when there is no such user or
    /// the lookup fails.
    static func entry<R>(uid: UInt32, bufferSize: Int = 4096, _ read: (passwd) -> R) -> R? {
        var size = max(bufferSize, 1)
        while true {
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let found: R?? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { buffer -> R?? in
                guard let base = buffer.baseAddress else { return .some(nil) }
                let rc = getpwuid_r(uid, &entry, base, buffer.count, &result)
                if rc == ERANGE { return nil }  // too small: try a larger buffer
                guard rc == 0, result != nil else { return .some(nil) }
                return .some(read(entry))
            }
            if let found { return found }
            guard size < 1 << 20 else { return nil }
            size *= 2
        }
    }
}
