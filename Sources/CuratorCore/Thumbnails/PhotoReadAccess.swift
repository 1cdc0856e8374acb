// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// Why a photo was not opened: the user may not read it, or it could not be opened.
enum PhotoReadFailure: Error {
    case refused
    case failed(SystemError)
}

/// Opens a photo for a user, once, from its root down, so that the file checked is
/// the file read: a folder swapped for a symlink between a check by path and a read
/// by path would hand the daemon's capabilities to the asker. Another user needs
/// search on every directory from the root down (each opened with O_NOFOLLOW from
/// the one before, and checked through that descriptor) and read on the file (its
/// mode bits or its ACL, as `AccessRule`, read from the open file). The daemon's own user and root get
/// the file below the root without a symlink on the way (`openFile(beneath:)`).
enum PhotoReadAccess {
    static let flags = O_RDONLY | O_NONBLOCK | curator_O_NOFOLLOW

    /// `requester` nil: the daemon's own user.
    static func open(root: ByteString, relative: ByteString, for requester: Requester?) throws(PhotoReadFailure) -> OpenedPhoto {
        guard let path = PhotoPath(root: root, relative: relative) else { throw .refused }
        let top: DirectoryHandle
        do {
            top = try DirectoryHandle.open(root, followingSymlinks: true)
        } catch {
            throw requester.map { $0.uid == 0 } == false ? .refused : .failed(error)
        }
        guard let requester, requester.uid != 0 else {
            do {
                return try opened(try top.openFile(beneath: relative, flags), path: path.absolute)
            } catch {
                throw .failed(error)
            }
        }
        let parent: DirectoryHandle
        let checked: FileStatus
        do {
            let (directory, chain) = try path.openParent(from: top)
            guard AccessRule.maySearch(chain, requester), let file = try directory.status(of: path.name) else {
                throw PhotoReadFailure.refused
            }
            (parent, checked) = (directory, file)
        } catch {
            throw .refused
        }
        // A FIFO or a device is not opened (O_NONBLOCK or not, a device's open may do something).
        guard checked.isRegularFile else { throw .failed(SystemError("read", path: path.absolute.lossyString, errno: .invalid)) }
        let photo: OpenedPhoto
        do {
            photo = try opened(try FileDescriptor.open(path.name, flags, relativeTo: parent.descriptor), path: path.absolute)
        } catch {
            throw .failed(error)
        }
        // Replaced between the look and the open: not the file looked at. Read is
        // checked on the open file itself, its ACL included.
        guard photo.status.device == checked.device, photo.status.inode == checked.inode,
              mayRead(photo, requester, path: path.absolute) else {
            try? photo.descriptor.close()
            throw .refused
        }
        return photo
    }

    private static func opened(_ descriptor: FileDescriptor, path: ByteString) throws(SystemError) -> OpenedPhoto {
        do {
            return OpenedPhoto(descriptor: descriptor, status: try FileStatus.of(descriptor: descriptor))
        } catch {
            try? descriptor.close()
            throw SystemError(error.call, path: path.lossyString, errno: error.errno)
        }
    }

    /// Read permission on the open file: its ACL where it has one (a `setfacl -m
    /// u:bob:---` refuses bob what the mode's other bits give), else its mode bits,
    /// as the kernel would check it for that user. An ACL that cannot be read refuses.
    static func mayRead(_ photo: OpenedPhoto, _ requester: Requester, path: ByteString) -> Bool {
        let acl: AccessControlList?
        do {
            acl = try ACLReader.read(descriptor: photo.descriptor, path: path)
        } catch {
            return false
        }
        return AccessRule.permits(FolderPermissions(photo.status, acl: acl), requester, AccessRule.read)
    }
}
