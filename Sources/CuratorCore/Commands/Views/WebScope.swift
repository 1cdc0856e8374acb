// SPDX-License-Identifier: GPL-2.0-or-later

/// What the `web.*` commands may do: the web passwords and sessions, under the
/// configuration in force; nothing of the state.
protocol WebScope: AnyObject, Sendable {
    var web: WebAuthority { get }
    var configuration: Configuration { get }
}

extension Curator: WebScope {}

extension CuratorCommand where View == any WebScope {
    static func view(of curator: Curator) -> any WebScope { curator }
}
