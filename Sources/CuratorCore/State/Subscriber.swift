// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Glibc

/// A subscribed connection and what it follows.
struct Subscriber {
    let sink: any EventSink
    let uid: UInt32
    /// Root ids to report; nil for all.
    let roots: Set<Int32>?
    /// Names of the owner's sessions whose changes it follows; nil for all of them.
    let sessions: Set<String>?
    /// Whether it asked for `thumbnail` events.
    var thumbnails = false

    func follows(_ key: SessionKey) -> Bool {
        key.uid == uid && (sessions?.contains(key.name) ?? true)
    }
}
