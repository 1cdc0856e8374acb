// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// Reads the configuration again and applies it: the daemon's part of `reload`
/// (its command line, its log level, systemd), handed to `Curator.handReloadsTo`.
public protocol ConfigurationReloading: Sendable {
    /// `askedBy` says who, for the log. With `waitForWatcher`, returns once the
    /// watcher has the new roots in hand.
    func reload(askedBy: String, waitForWatcher: Bool) -> Result<ReloadResult, ProtocolError>
}
