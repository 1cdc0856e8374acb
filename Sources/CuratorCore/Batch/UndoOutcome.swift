// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What `BatchRunner.undo` returns.
public struct UndoOutcome: Sendable {
    public var result: UndoResult
    public var restored: [RestoredPhoto]
}
