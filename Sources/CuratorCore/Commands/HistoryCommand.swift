// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `history`: the caller's batches, newest first, from the journal.
enum HistoryCommand: CuratorCommand {
    static func run(_ args: HistoryRequest, curator: any BatchScope, caller: Caller) throws -> HistoryResult {
        let batches = try curator.batches.withRunner { (runner) throws(BatchError) in
            try runner.history(uid: caller.uid, limit: args.limit ?? 50)
        }
        return HistoryResult(batches: batches)
    }
}
