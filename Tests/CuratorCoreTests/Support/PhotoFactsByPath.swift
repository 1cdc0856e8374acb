// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
@testable import CuratorCore
import CuratorSystem
import Glibc

extension PhotoFactsReader {
    /// The facts of the file at `path` (no symlink followed), for tests of the
    /// readers; the daemon reads only a descriptor `PhotoReadAccess` opened.
    static func read(path: ByteString) throws(SystemError) -> PhotoFacts {
        let descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | curator_O_NOFOLLOW)
        return try descriptor.closeAfter { (descriptor) throws(SystemError) -> PhotoFacts in
            try read(OpenedPhoto(descriptor: descriptor, status: try FileStatus.of(descriptor: descriptor)), path: path)
        }
    }
}
