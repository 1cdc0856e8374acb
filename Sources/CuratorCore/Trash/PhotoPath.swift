// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A photo's place: a root directory and a path below it, checked to have no
/// `.`/`..` or empty component, so that walking it from the root's descriptor
/// (without following symlinks) cannot leave the root.
struct PhotoPath: Hashable, Sendable {
    let root: ByteString
    let relative: ByteString
    let directories: [ByteString]
    let name: ByteString

    init?(root: ByteString, relative: ByteString) {
        guard !relative.isEmpty, !relative.containsNUL, relative.bytes.first != UInt8(ascii: "/"),
              relative.bytes.last != UInt8(ascii: "/")
        else { return nil }
        let parts = relative.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { ByteString(Array($0)) }
        guard parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }), let last = parts.last else { return nil }
        self.root = root
        self.relative = relative
        self.directories = Array(parts.dropLast())
        self.name = last
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
