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
    static func kind(of path: ByteString) -> String? {
        var type: Int64 = 0
        guard path.withCString({ SystemCalls.fileSystemType($0, &type) }) == 0 else { return nil }
        return remoteMagics[UInt(UInt32(truncatingIfNeeded: type))]
    }
}
