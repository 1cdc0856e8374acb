// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem

/// What must happen before systemd hears READY=1 and clients are served:
/// finishing or reporting a batch that a crash (or a SIGTERM mid-batch)
/// interrupted, from the journal, so that every photo is either at its path or
/// in the trash before anyone looks. The start-up order is: open the index,
/// recover here, listen, then READY=1.
enum StartupRecovery {
    /// Settles the journal and logs what it found. Throwing stops the start-up with exit 1.
    static func recoverJournal(_ curator: Curator) throws {
        let report = try curator.recoverJournal()
        for batch in report.batches {
            log.notice("recovered batch \(batch.batch): \(batch.state.rawValue), \(batch.trashed) in the trash, \(batch.skipped) not")
        }
        for repair in report.repairs { log.notice("journal recovery: \(repair)") }
    }
}
