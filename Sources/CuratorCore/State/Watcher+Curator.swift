// SPDX-License-Identifier: GPL-2.0-or-later

extension Watcher {
    /// The watcher of `curator`'s roots, over its state, inbox, report and moves.
    /// Here, beside the state, so that the watcher names only what it uses.
    public convenience init(curator: Curator, tools: InotifyToolsHandle?) {
        self.init(state: curator, inbox: curator.inbox, report: curator.watcherReport, moves: curator.ownMoves, tools: tools)
    }
}
