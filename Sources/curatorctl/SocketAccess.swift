// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

/// Why connect(2) to the daemon's socket failed with EACCES, worked out from the
/// file system: a directory on the way the caller may not enter, or the socket's
/// owner, group and mode against the caller's user and groups. The daemon may be
/// running perfectly well; the user is told why they may not use it, and what would
/// let them in (for the system service: membership of the socket's group).
struct SocketAccess {
    let path: String

    /// The caller as the kernel sees this process.
    struct Caller {
        let uid: uid_t
        let name: String?
        let groups: Set<gid_t>

        static func current() -> Caller {
            var groups: Set<gid_t> = [getegid()]
            let count = getgroups(0, nil)
            if count > 0 {
                var list = [gid_t](repeating: 0, count: Int(count))
                let got = getgroups(count, &list)
                if got > 0 { groups.formUnion(list.prefix(Int(got))) }
            }
            let uid = geteuid()
            return Caller(uid: uid, name: SocketAccess.userName(uid), groups: groups)
        }

        var described: String { name.map { "\($0), uid \(uid)" } ?? "uid \(uid)" }
        var loginName: String { name ?? "USER" }
    }

    /// The sentence for people.
    func explanation(for caller: Caller = .current()) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let head = "you (\(caller.described)) may not use curatord's socket \(path)"
        // A directory on the way that refuses search permission hides the socket itself.
        var directory = ""
        for component in absolute.split(separator: "/").dropLast() {
            directory += "/" + component
            if SystemCalls.faccessat(AT_FDCWD, directory, X_OK, 0) != 0 && errno == EACCES {
                return "\(head): the directory \(directory) (\(Self.describe(directory))) does not let you in."
            }
        }
        var st = stat()
        guard SystemCalls.stat(absolute, &st) == 0 else { return "\(head): \(String(cString: strerror(EACCES)))." }
        let owner = Self.userName(st.st_uid) ?? "uid \(st.st_uid)"
        let group = Self.groupName(st.st_gid) ?? "gid \(st.st_gid)"
        let facts = "it belongs to \(owner):\(group) with mode \(Self.octal(st.st_mode)) (\(Self.symbolic(st.st_mode)))"
        let groupMayWrite = st.st_mode & S_IWGRP != 0
        if caller.uid != st.st_uid && !caller.groups.contains(st.st_gid) && groupMayWrite {
            if let name = caller.name, Self.listedMember(name, primary: Self.primaryGroup(caller.uid), of: st.st_gid) {
                return """
                    \(head):
                    \(facts), and this login of \(name) is not in the group \(group) yet: \
                    \(name) was added to it after logging in.
                    Log out and in again (or run `newgrp \(group)`), then try again.
                    """
            }
            return """
                \(head):
                \(facts): only \(owner) and members of the group \(group) may connect, \
                and \(caller.name ?? "uid \(caller.uid)") is not in the group \(group).
                To be let in, an administrator runs:  usermod -aG \(group) \(caller.loginName)
                and \(caller.name ?? "the user") logs in again (a new group counts from the next login).
                """
        }
        if caller.uid != st.st_uid && !groupMayWrite {
            return """
                \(head):
                \(facts): only \(owner) may connect. It is \(owner)'s own curatord; \
                start yours with `systemctl --user start curatord`, or use the system-wide one \
                (--socket /run/curatord/curatord.sock).
                """
        }
        return "\(head):\n\(facts), which would let you in: an ACL or a security module refuses you."
    }

    // MARK: names and modes

    static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    static func primaryGroup(_ uid: uid_t) -> gid_t? {
        guard let entry = getpwuid(uid) else { return nil }
        return entry.pointee.pw_gid
    }

    static func groupName(_ gid: gid_t) -> String? {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return nil }
        return String(cString: name)
    }

    /// Whether the group database (not this process) counts `user` in `gid`.
    static func listedMember(_ user: String, primary: gid_t?, of gid: gid_t) -> Bool {
        if primary == gid { return true }
        var count: Int32 = 64
        var list = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(user, primary ?? gid_t.max, &list, &count) < 0 {
            list = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(user, primary ?? gid_t.max, &list, &count) >= 0 else { return false }
        }
        return list.prefix(Int(count)).contains(gid)
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `srw-rw----`, as `ls -l` shows it.
    static func symbolic(_ mode: mode_t) -> String {
        let kind: Character = switch mode & S_IFMT {
        case S_IFSOCK: "s"
        case S_IFDIR: "d"
        case S_IFLNK: "l"
        default: "-"
        }
        var text = String(kind)
        let bits: [(mode_t, Character)] = [(S_IRUSR, "r"), (S_IWUSR, "w"), (S_IXUSR, "x"), (S_IRGRP, "r"), (S_IWGRP, "w"),
                                           (S_IXGRP, "x"), (S_IROTH, "r"), (S_IWOTH, "w"), (S_IXOTH, "x")]
        for (bit, letter) in bits { text.append(mode & bit != 0 ? letter : "-") }
        return text
    }

    static func describe(_ path: String) -> String {
        var st = stat()
        guard SystemCalls.stat(path, &st) == 0 else { return "cannot be examined" }
        let owner = userName(st.st_uid) ?? "uid \(st.st_uid)"
        let group = groupName(st.st_gid) ?? "gid \(st.st_gid)"
        return "\(owner):\(group), mode \(octal(st.st_mode))"
    }
}
