// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Glibc

/// `trash.empty`: deletes for good what `trash.list` with the same arguments listed
/// (its `token`), journaled; refused when the list changed since. Like a delete it
/// holds the slots of the roots it empties photos of, and waits for no other batch:
/// one on one of those roots makes it `batch_running`.
enum TrashEmptyCommand: CuratorCommand {
    static func run(_ args: TrashEmptyRequest, curator: any BatchScope, caller: Caller) throws -> TrashEmptyResult {
        guard let token = args.token, !token.isEmpty else {
            throw ProtocolError(.invalidArgument, "token: required: the token of the trash.list with the same root and "
                                + "older_than_days, so that exactly what was shown is emptied", argument: "token")
        }
        return try curator.batchCoordinator.empty(root: args.root, cutoff: try cutoff(args, curator: curator), token: token,
                                                  caller: caller)
    }

    /// The time before which a photo's batch must have run (now less `older_than_days`),
    /// after checking that a named root exists.
    static func cutoff(_ args: some TrashRequest, curator: any BatchScope) throws(ProtocolError) -> Int64? {
        if let root = args.root, curator.configuration.root(named: root) == nil {
            throw ProtocolError(.noSuchRoot, "No root is named \"\(root)\".", argument: "root")
        }
        return args.olderThanDays.map { cutoff(now: Int64(time(nil)), olderThanDays: $0) }
    }

    /// `now` less that many days, or the earliest time there is when that lies before
    /// it: any number of days is valid (nothing is that old), and a client's number
    /// must not trap the daemon.
    static func cutoff(now: Int64, olderThanDays days: Int) -> Int64 {
        let (seconds, overflow) = Int64(days).multipliedReportingOverflow(by: 86_400)
        guard !overflow else { return .min }
        let (cutoff, under) = now.subtractingReportingOverflow(seconds)
        return under ? .min : cutoff
    }
}
