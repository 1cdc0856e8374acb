// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Why a sidecar could not be read or written; each case names the file.
public enum SidecarError: Error, Sendable, CustomStringConvertible {
    /// A system call failed (the error names the call, the path and errno).
    case system(SystemError)
    /// The sidecar is not XMP, or the toolkit failed.
    case xmp(XMPError)
    /// Another program kept replacing the sidecar between our read and our write.
    case keptChanging(path: String, attempts: Int)
    /// Not a regular file (a symlink, a folder, a device): never read or replaced.
    case notRegularFile(path: String)

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .xmp(let error): "\(error)"
        case .keptChanging(let path, let attempts): "\(path): changed by another program on each of \(attempts) tries; not written"
        case .notRegularFile(let path): "\(path): not a regular file"
        }
    }
}
