// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CLinux

/// Network and FUSE file systems deliver no inotify events for changes made on
/// other hosts; `watch: "auto"` polls the roots that sit on one.
enum RemoteFilesystem {
    // statfs f_type magic numbers (linux/magic.h and fs sources).
    private static let remoteMagics: [UInt: String] = [
        0x6969: "nfs",
        0xFF53_4D42: "cifs",
        0xFE53_4D42: "smb2",
        0x517B: "smb",
        0x6573_5546: "fuse",
        0x0102_1997: "9p",
        0x7364_6273: "ceph",  // not exact; harmless
        0x0BD0_0BD0: "lustre",
        0x5346_414F: "afs",
        0x6B41_4653: "afs",
    ]

    /// The remote file system's name when `path` is on one, nil for a local one.
    /// Looks first at the mount table, which asks nothing of the file system (a
    /// share whose server hangs would hang `statfs`), then at `statfs` for a path
    /// that reaches a share through a symbolic link.
    static func kind(of path: ByteString) -> String? {
        if let kind = kindInMountTable(of: path) { return kind }
        return kindByStatfs(of: path)
    }

    /// The file system type of the mount that holds `path` lexically (the longest
    /// mount point that is a prefix of it), when it is a remote one.
    static func kindInMountTable(of path: ByteString, table: [MountEntry]? = nil) -> String? {
        guard let entries = table ?? (try? MountTable.load()) else { return nil }
        let bytes = path.bytes
        var best: MountEntry?
        for entry in entries {
            let point = entry.mountPoint.bytes
            let contains = point == [UInt8(ascii: "/")]
                || (bytes.starts(with: point) && (bytes.count == point.count || bytes[point.count] == UInt8(ascii: "/")))
            if contains && point.count >= (best?.mountPoint.bytes.count ?? -1) { best = entry }
        }
        guard let type = best?.fsType else { return nil }
        return remoteType(type)
    }

    /// mountinfo's type names of remote file systems (FUSE ones as `fuse.sshfs`).
    static func remoteType(_ type: String) -> String? {
        if type.hasPrefix("fuse") { return type.hasPrefix("fuse.") ? String(type.dropFirst(5)) : "fuse" }
        let remote: Set<String> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "afs", "lustre", "glusterfs", "davfs"]
        return remote.contains(type) ? type : nil
    }

    private static func kindByStatfs(of path: ByteString) -> String? {
        var type: Int64 = 0
        guard path.withCString({ SystemCalls.fileSystemType($0, &type) }) == 0 else { return nil }
        return remoteMagics[UInt(UInt32(truncatingIfNeeded: type))]
    }
}
