// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A photo's place: a root directory and a path below it, checked to have no
/// `.`/`..` or empty component, so that walking it from the root's descriptor
/// (without following symlinks) cannot leave the root.
struct PhotoPath: Hashable, Sendable {
    let root: ByteString
    let relative: ByteString
    let name: ByteString

    /// Checked in one pass over the bytes, without splitting the path: a batch
    /// makes one per photo, and only the first photo of a folder needs the folders
    /// (`directories`, to open them).
    init?(root: ByteString, relative: ByteString) {
        let bytes = relative.bytes
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var start = 0
        var valid = !bytes.isEmpty
        var index = 0
        while valid && index <= bytes.count {
            if index == bytes.count || bytes[index] == slash {
                // The component bytes[start..<index]: neither empty, nor "." nor "..".
                let length = index - start
                valid = length > 0 && !(length == 1 && bytes[start] == dot) && !(length == 2 && bytes[start] == dot && bytes[start + 1] == dot)
                if index < bytes.count { start = index + 1 }
            } else if bytes[index] == 0 {
                valid = false
            }
            index += 1
        }
        guard valid else { return nil }
        self.root = root
        self.relative = relative
        self.name = start == 0 ? relative : ByteString(Array(bytes[start...]))
    }

    /// The folders from the root down to the photo's, in order.
    var directories: [ByteString] {
        Array(relative.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropLast().map { ByteString(Array($0)) })
    }

    var absolute: ByteString { root.appending(relative) }

    /// The photo's directory, opened component by component with O_NOFOLLOW from
    /// `root`, and the permissions of every directory on the way (root first): what a
    /// permission check needs. ELOOP/ENOTDIR mean a component is no longer a directory.
    func openParent(from root: DirectoryHandle) throws(SystemError) -> (parent: DirectoryHandle, chain: [FolderPermissions]) {
        var chain = [try FolderPermissions.read(root)]
        var current = root
        for component in directories {
            current = try current.openDirectory(component)
            chain.append(try FolderPermissions.read(current))
        }
        return (current, chain)
    }
}
