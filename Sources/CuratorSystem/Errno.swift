// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A typed errno value. Failures from the environment throw `SystemError`,
/// which carries the errno together with the call and the path it was about.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    public static var current: Errno { Errno(errno) }

    public static let noEntry = Errno(ENOENT)
    public static let exists = Errno(EEXIST)
    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let accessDenied = Errno(EACCES)
    public static let notPermitted = Errno(EPERM)
    public static let crossDevice = Errno(EXDEV)
    public static let noSpace = Errno(ENOSPC)
    public static let notDirectory = Errno(ENOTDIR)
    public static let isDirectory = Errno(EISDIR)
    public static let tooManyLinks = Errno(ELOOP)
    public static let invalid = Errno(EINVAL)
    public static let notSupported = Errno(EOPNOTSUPP)
    public static let badDescriptor = Errno(EBADF)
    public static let connectionRefused = Errno(ECONNREFUSED)
    public static let brokenPipe = Errno(EPIPE)
    public static let notEmpty = Errno(ENOTEMPTY)
    public static let readOnly = Errno(EROFS)
    public static let busy = Errno(EBUSY)
    public static let fileTooLarge = Errno(EFBIG)

    /// The symbolic name (`ENOENT`), as clients see it in error codes.
    public var name: String {
        switch rawValue {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EBUSY: "EBUSY"
        case EEXIST: "EEXIST"
        case EXDEV: "EXDEV"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case EINVAL: "EINVAL"
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case ENOSPC: "ENOSPC"
        case EROFS: "EROFS"
        case EMLINK: "EMLINK"
        case EPIPE: "EPIPE"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case ENOTEMPTY: "ENOTEMPTY"
        case ELOOP: "ELOOP"
        case EOPNOTSUPP: "EOPNOTSUPP"
        case ECONNREFUSED: "ECONNREFUSED"
        case ECONNRESET: "ECONNRESET"
        case EDQUOT: "EDQUOT"
        case ESTALE: "ESTALE"
        case ENOSYS: "ENOSYS"
        case ETXTBSY: "ETXTBSY"
        case EFBIG: "EFBIG"
        default: "E\(rawValue)"
        }
    }

    public var message: String {
        guard let text = strerror(rawValue) else { return name }
        return String(cString: text)
    }

    public var description: String { "\(name) (\(message))" }
}

/// An environment failure: which call failed, on what, and why.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    public let call: String
    public let path: String?
    public let errno: Errno

    public init(_ call: String, path: String? = nil, errno: Errno) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    public var description: String {
        if let path { return "\(call) \(path): \(errno.message) [\(errno.name)]" }
        return "\(call): \(errno.message) [\(errno.name)]"
    }
}
