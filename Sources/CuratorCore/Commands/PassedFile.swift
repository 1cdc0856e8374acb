// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A file opened for a client, to be passed to it with its answer (SCM_RIGHTS). It
/// is closed when the last holder lets go: once sent (the client then has its own),
/// or unsent when the connection went first.
public final class PassedFile: Sendable {
    public let descriptor: FileDescriptor

    init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    // Opened read-only: its close has nothing to report.
    deinit { try? descriptor.close() }
}
