// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// `undo`: a batch put back (`BatchCoordinator.undo`; the caller's latest when none
/// is named), in ascending order, never over a file that now stands at a photo's
/// path; the photos are then indexed again under their former ids. Told like a
/// delete: one event per photo with the total, then a last one.
enum UndoCommand: CuratorCommand {
    static func run(_ args: UndoRequest, curator: any BatchScope, caller: Caller) throws -> UndoResult {
        try curator.batchCoordinator.undo(batch: args.batch, caller: caller)
    }
}
