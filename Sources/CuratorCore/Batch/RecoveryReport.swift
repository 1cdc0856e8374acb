// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What `BatchRunner.recover` found and did.
public struct RecoveryReport: Sendable {
    /// Every batch recovery touched, with the truth per photo after repairs.
    public var batches: [BatchResult]
    /// Photos an interrupted undo had already put back (re-index them).
    public var restored: [RestoredPhoto]
    /// One line per repair done on disk, for the log.
    public var repairs: [String]
}
