// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Glibc

/// Where pushed events go: a client connection that subscribed. `deliver` must not
/// block (it queues); it returns false when the subscriber is gone or hopelessly behind.
public protocol EventSink: AnyObject, Sendable {
    func deliver(_ line: Data) -> Bool
}

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
