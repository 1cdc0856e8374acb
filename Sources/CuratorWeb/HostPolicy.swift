// SPDX-License-Identifier: GPL-2.0-or-later

/// The names a browser may use for the personal gateway, and so the only `Host` and
/// `Origin` it accepts. A page on another site that rebinds its DNS name to 127.0.0.1
/// sends its own name as `Host` and is refused; a page of another origin cannot send
/// the custom header without a preflight this gateway never grants, nor a matching
/// `Origin`.
struct HostPolicy: Sendable {
    let port: UInt16

    /// The header that marks a request as made by a script of ours (or a program),
    /// never by a cross-site form or link.
    static let requestHeader = "X-Curator"

    var hosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)"] }

    func allowsHost(_ host: String?) -> Bool {
        guard let host else { return false }
        return hosts.contains(host.lowercased())
    }

    /// A browser sends `Origin` on every POST; a program may send none.
    func allowsOrigin(_ origin: String?) -> Bool {
        guard let origin else { return true }
        return hosts.contains { "http://" + $0 == origin.lowercased() }
    }

    /// What a state-changing request must carry: the header, and no foreign origin.
    func allowsChange(marker: String?, origin: String?) -> Bool {
        marker == "1" && allowsOrigin(origin)
    }
}
