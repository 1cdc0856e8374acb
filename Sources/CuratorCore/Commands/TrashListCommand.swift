// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Glibc

/// `trash.list`: the caller's photos that curatord moved to a trash (either kind) and
/// that are still there, oldest batch first, with the token `trash.empty` takes.
enum TrashListCommand: CuratorCommand {
    static func run(_ args: TrashListRequest, curator: any BatchScope, caller: Caller) throws -> TrashListResult {
        let cutoff = try TrashEmptyCommand.cutoff(args, curator: curator)
        return try curator.batches.withRunner { (runner) throws(BatchError) in
            try runner.trashed(uid: caller.uid, root: args.root, cutoff: cutoff)
        }
    }
}
