// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `rescan`: a full scan of one root, or of all, queued with the watcher.
enum RescanCommand: CuratorCommand {
    static func run(_ args: RescanRequest, curator: any ServerScope, caller: Caller) throws(ProtocolError) -> RescanResult {
        let ids = try curator.withRoots { (state) throws(ProtocolError) -> [Int32] in
            if let name = args.root { return [try state.roots.id(named: name, argument: "root")] }
            return state.rootOrder
        }
        curator.inbox.post(.rescan(ids))
        // Answered once the watcher has the scans in hand: from then on `status` says
        // `scanning`, so "rescan, then wait until not scanning" cannot read the state
        // from before the rescan (it could, on a loaded host). Bounded: a watcher busy
        // elsewhere still gets the rescan, just later.
        _ = curator.watcherCaughtUp(within: 5)
        let names = curator.withRoots { state in ids.map(state.rootName) }
        return RescanResult(roots: names)
    }
}
