// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A photo opened for reading, and what `fstat` says of that very file: whoever
/// reads it reads this descriptor, never the path again. The caller closes it.
struct OpenedPhoto {
    let descriptor: FileDescriptor
    let status: FileStatus
}
