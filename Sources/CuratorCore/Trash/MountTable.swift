// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// One line of /proc/self/mountinfo.
struct MountEntry: Hashable, Sendable {
    var id: UInt64
    var parentID: UInt64
    /// The mount point, as the process sees it.
    var mountPoint: ByteString
    var fsType: String
    /// `major:minor` of the file system: two mounts of one file system share it.
    var device: String = ""
    /// The directory of the file system that is mounted here: `/` for a whole file
    /// system, a subdirectory for a bind mount of one (as `ReadWritePaths=` makes).
    var root: ByteString = "/"
    /// Mounted read-only (the per-mount `ro` option).
    var readOnly = false
}

/// The mount table, read from /proc/self/mountinfo. The trash is chosen per mount
/// (not per st_dev): two bind mounts of one file system share st_dev, yet a rename
/// between them fails with EXDEV.
enum MountTable {
    /// The whole table or an error: a table cut short could lack the mount a photo
    /// is on, or pick its parent's, and so the wrong trash. 16 MiB is some
    /// 100 000 mounts.
    static func load(from path: ByteString = "/proc/self/mountinfo") throws(SystemError) -> [MountEntry] {
        let fd = try FileDescriptor.open(path, O_RDONLY)
        let bytes = try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll(limit: 16 << 20, path: path.lossyString) }
        return parse(bytes)
    }

    /// Parses mountinfo text; malformed lines are skipped.
    static func parse(_ bytes: [UInt8]) -> [MountEntry] {
        var entries: [MountEntry] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            // id parent major:minor root mountpoint options [optional...] - fstype source superoptions
            guard fields.count >= 7,
                  let id = UInt64(String(decoding: fields[0], as: UTF8.self)),
                  let parent = UInt64(String(decoding: fields[1], as: UTF8.self)),
                  let separator = fields[6...].firstIndex(where: { $0.elementsEqual("-".utf8) }),
                  separator + 1 < fields.count
            else { continue }
            let options = fields[5].split(separator: UInt8(ascii: ","))
            entries.append(MountEntry(id: id, parentID: parent, mountPoint: unescape(fields[4]),
                                      fsType: String(decoding: fields[separator + 1], as: UTF8.self),
                                      device: String(decoding: fields[2], as: UTF8.self), root: unescape(fields[3]),
                                      readOnly: options.contains { $0.elementsEqual("ro".utf8) }))
        }
        return entries
    }

    /// Undoes the kernel's octal escapes (`\040` space, `\011` tab, `\012` newline, `\134` backslash).
    static func unescape<S: Collection>(_ field: S) -> ByteString where S.Element == UInt8 {
        let raw = Array(field)
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            if raw[i] == UInt8(ascii: "\\"), i + 4 <= raw.count, let value = octal(raw[(i + 1)..<(i + 4)]) {
                out.append(value)
                i += 4
            } else {
                out.append(raw[i])
                i += 1
            }
        }
        return ByteString(out)
    }

    private static func octal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        guard digits.count == 3 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { return nil }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 255 ? UInt8(value) : nil
    }

    static func entry(id: UInt64, in entries: [MountEntry]) -> MountEntry? {
        entries.first { $0.id == id }
    }

    /// For a bind mount of a subdirectory that sits exactly where that subdirectory
    /// already is in the tree (what systemd's `ReadWritePaths=` and the like make in a
    /// service's mount namespace), the mount of its file system nearest the top that
    /// holds it: the top directory that the host's mount table gives, and desktop
    /// trash tools use. Found by walking up `root`: the whole file system (`root` "/"),
    /// or a mount of a subvolume or a container's tree (`root` "/@", "/var/lib/machines/x")
    /// when that is what the host mounts. nil for a whole file system, or a bind mount
    /// placed elsewhere (there the mount point is the top directory for everyone who sees it).
    static func enclosingWhole(of entry: MountEntry, in entries: [MountEntry]) -> MountEntry? {
        guard entry.root != "/" else { return nil }
        var found: MountEntry?
        for whole in entries where whole.device == entry.device && whole.id != entry.id {
            guard let rest = below(whole.root, entry.root) else { continue }
            let expected = whole.mountPoint == "/" ? rest : ByteString(whole.mountPoint.bytes + rest.bytes)
            guard expected == entry.mountPoint else { continue }
            // The one nearest the file system's top; the last mounted where several cover the same place.
            if let current = found, current.root.count < whole.root.count { continue }
            found = whole
        }
        return found
    }

    /// Whether `entry` is a bind mount of a subdirectory that no visible mount of its
    /// file system explains, yet whose parent directory is on that same file system
    /// (equal st_dev): a folder bound onto itself inside a namespace that hides the
    /// file system's own mount. Its mount point is no top directory either.
    static func isHiddenBindInPlace(_ entry: MountEntry, in entries: [MountEntry]) -> Bool {
        guard entry.root != "/", entry.mountPoint != "/" else { return false }
        let explained = entries.contains { other in
            other.device == entry.device && other.id != entry.id && below(other.root, entry.root) != nil
        }
        guard !explained,
              let here = try? FileStatus.ifExists(entry.mountPoint),
              let parent = try? FileStatus.ifExists(entry.mountPoint.parent.isEmpty ? "/" : entry.mountPoint.parent)
        else { return false }
        return here.device == parent.device
    }

    /// `path` relative to `ancestor` when `ancestor` is a proper ancestor of it (by
    /// whole components), as an absolute path ("/srv/photos" below "/": "/srv/photos";
    /// below "/srv": "/photos"); nil otherwise.
    private static func below(_ ancestor: ByteString, _ path: ByteString) -> ByteString? {
        if ancestor == "/" { return path == "/" ? nil : path }
        let a = ancestor.bytes
        let p = path.bytes
        guard p.count > a.count, p.starts(with: a), p[a.count] == UInt8(ascii: "/") else { return nil }
        return ByteString(Array(p[a.count...]))
    }
}
