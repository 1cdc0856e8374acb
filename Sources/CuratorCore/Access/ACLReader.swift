// SPDX-License-Identifier: GPL-2.0-or-later
import CACL
import CuratorSystem
import Glibc

/// Reads a file's or directory's access ACL through libacl, only where it has one beyond its
/// mode (`acl_extended_*`: one getxattr); a file system without ACLs (EOPNOTSUPP)
/// has none. libacl's calls are not in `SystemCalls` (libacl makes the system
/// calls itself); a failure here is a `SystemError` like any other.
enum ACLReader {
    /// The ACL of the directory at `path` (not following a symlink), nil when its mode says it all.
    static func read(path: ByteString) throws(SystemError) -> AccessControlList? {
        let extended = path.withCString { acl_extended_file_nofollow($0) }
        if extended < 0 {
            let error = Errno.current
            if error == .notSupported || error == Errno(ENOTSUP) { return nil }
            throw SystemError("acl_extended_file_nofollow", path: path.lossyString, errno: error)
        }
        guard extended == 1 else { return nil }
        guard let acl = path.withCString({ acl_get_file($0, acl_type_t(ACL_TYPE_ACCESS)) }) else {
            throw SystemError("acl_get_file", path: path.lossyString, errno: Errno.current)
        }
        defer { acl_free(UnsafeMutableRawPointer(acl)) }
        return entries(of: acl)
    }

    /// The ACL of the open file or directory `descriptor`, nil when its mode says it all.
    static func read(descriptor: FileDescriptor, path: ByteString) throws(SystemError) -> AccessControlList? {
        let extended = acl_extended_fd(descriptor.rawValue)
        if extended < 0 {
            let error = Errno.current
            if error == .notSupported || error == Errno(ENOTSUP) { return nil }
            throw SystemError("acl_extended_fd", path: path.lossyString, errno: error)
        }
        guard extended == 1 else { return nil }
        guard let acl = acl_get_fd(descriptor.rawValue) else {
            throw SystemError("acl_get_fd", path: path.lossyString, errno: Errno.current)
        }
        defer { acl_free(UnsafeMutableRawPointer(acl)) }
        return entries(of: acl)
    }

    private static func entries(of acl: acl_t) -> AccessControlList {
        var entries: [AccessControlList.Entry] = []
        var entry: acl_entry_t?
        var which = Int32(ACL_FIRST_ENTRY)
        while acl_get_entry(acl, which, &entry) == 1, let current = entry {
            which = Int32(ACL_NEXT_ENTRY)
            var tagType = acl_tag_t(0)
            guard acl_get_tag_type(current, &tagType) == 0 else { continue }
            let tag: AccessControlList.Tag
            switch Int32(tagType) {
            case Int32(ACL_USER_OBJ): tag = .owner
            case Int32(ACL_USER): tag = .user(qualifier(of: current))
            case Int32(ACL_GROUP_OBJ): tag = .owningGroup
            case Int32(ACL_GROUP): tag = .group(qualifier(of: current))
            case Int32(ACL_MASK): tag = .mask
            case Int32(ACL_OTHER): tag = .other
            default: continue
            }
            var permset: acl_permset_t?
            guard acl_get_permset(current, &permset) == 0, let permset else { continue }
            var bits: UInt32 = 0
            if acl_get_perm(permset, acl_perm_t(ACL_READ)) == 1 { bits |= 0o4 }
            if acl_get_perm(permset, acl_perm_t(ACL_WRITE)) == 1 { bits |= 0o2 }
            if acl_get_perm(permset, acl_perm_t(ACL_EXECUTE)) == 1 { bits |= 0o1 }
            entries.append(AccessControlList.Entry(tag: tag, permissions: bits))
        }
        return AccessControlList(entries: entries)
    }

    /// A named entry's uid or gid. An entry whose qualifier cannot be read names
    /// nobody real: uid (uint32) -1, which no requester has.
    private static func qualifier(of entry: acl_entry_t) -> UInt32 {
        guard let raw = acl_get_qualifier(entry) else { return .max }
        defer { acl_free(raw) }
        return raw.load(as: UInt32.self)
    }
}
