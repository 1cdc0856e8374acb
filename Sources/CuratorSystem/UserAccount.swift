// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// Facts about a Unix user that SO_PEERCRED does not give: its supplementary groups.
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

    public static func userName(uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let rc = getpwuid_r(uid, &entry, &buffer, buffer.count, &result)
        guard rc == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(validatingCString: name)
    }

    public static func homeDirectory(uid: UInt32) -> ByteString? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let rc = getpwuid_r(uid, &entry, &buffer, buffer.count, &result)
        guard rc == 0, result != nil, let dir = entry.pw_dir else { return nil }
        let bytes = UnsafeRawBufferPointer(start: dir, count: strlen(dir))
        return ByteString(bytes: bytes)
    }
}
