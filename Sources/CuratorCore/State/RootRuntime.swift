// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What the daemon knows about one configured root right now.
struct RootRuntime {
    var id: Int32
    var config: RootConfig {
        didSet { protection = ProtectionRules(config.protected) }
    }
    private(set) var protection: ProtectionRules
    /// False while the folder is gone or another file system sits at its path (an unmounted share).
    var online = true
    /// The device the root was indexed on: a different one at its path means unmounted.
    var device: UInt64 = 0
    var inode: UInt64 = 0
    /// What is in force: inotify, poll, or both.
    var usesInotify = true
    var polls = false
    /// On a share: inode numbers do not identify its photos for long (see `RootWatching.onShare`).
    var onShare = false
    /// Set once the watcher has found the root and decided how it is watched (so
    /// `onShare` holds): its capture times are read only then, on the right thread.
    var watchingDecided = false
    var note: String?
    /// Wall-clock seconds since the epoch at which the root's file system stopped
    /// answering (a share whose server hangs); nil while it answers.
    var unresponsiveSince: Int64?
    /// True from the start until the first scan is over: a client asking early must
    /// not read an empty index as complete.
    var scanning = true
    var scanDirectories = 0
    var scanFiles = 0
    var lastScanMs: Int?
    var overflows = 0
    var rescans = 0
    var watches = 0

    init(id: Int32, config: RootConfig, device: UInt64 = 0) {
        self.id = id
        self.config = config
        self.device = device
        self.protection = ProtectionRules(config.protected)
    }

    var watchingDescription: String {
        switch (usesInotify, polls) {
        case (true, true): "inotify+poll"
        case (true, false): "inotify"
        case (false, _): "poll"
        }
    }
}
