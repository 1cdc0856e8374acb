// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// Where pushed events go: a client connection that subscribed. `deliver` must not
/// block (it queues); it returns false when the subscriber is gone or hopelessly behind.
public protocol EventSink: AnyObject, Sendable {
    func deliver(_ line: Data) -> Bool
}
