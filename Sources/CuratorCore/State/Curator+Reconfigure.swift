// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

extension Curator {
    /// Applies a new configuration (a reload): roots added, removed or changed,
    /// sessions and the index kept. With `seconds`, returns once the watcher has
    /// started, stopped or restarted the roots (false if it did not in that time:
    /// it will); without, as soon as the state has them.
    @discardableResult
    public func reconfigure(_ config: Configuration, waitingUpTo seconds: Double? = nil) throws -> Bool {
        try withState { state in
            try state.registerRoots(config.roots)
            state.config = config
            state.viewCache.invalidate()
            // A root's path may have changed: whose folders are whose is read again.
            state.access.forgetAll()
            // Folders protected now: their photos leave every selection, with events.
            state.unselectProtected()
            state.flushSelections()
        }
        inbox.post(.reconfigure)
        guard let seconds else { return true }
        return watcherCaughtUp(within: seconds)
    }
}
