// SPDX-License-Identifier: GPL-2.0-or-later

/// What `subscribe` may do: name roots, and follow events.
protocol SubscribeScope: AnyObject {
    var roots: RootRegistry { get }
    var events: EventHub { get set }
}

extension CuratorState: SubscribeScope {}

extension StateCommand where View == any SubscribeScope {
    static func view(of state: CuratorState) -> any SubscribeScope { state }
}
