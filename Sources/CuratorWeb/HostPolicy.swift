// SPDX-License-Identifier: GPL-2.0-or-later

/// The names a browser may use for the personal gateway, and so the only `Host` and
/// `Origin` it accepts. A page on another site that rebinds its DNS name to 127.0.0.1
/// sends its own name as `Host` and is refused; a page of another origin cannot send
/// the custom header without a preflight this gateway never grants, nor a matching
/// `Origin`.
struct HostPolicy: Sendable {
    let port: UInt16
    /// `host:port` (or a bare `host`, reached on its scheme's port through a proxy),
    /// lower case.
    let hosts: [String]

    /// The header that marks a request as made by a script of ours (or a program),
    /// never by a cross-site form or link.
    static let requestHeader = "X-Curator"

    /// The loopback names on `port`, and `names` (the names people reach the gateway
    /// by, `host` or `host:port`) as they are.
    init(port: UInt16, loopback: Bool = true, names: [String] = []) {
        self.port = port
        hosts = (loopback ? ["127.0.0.1:\(port)", "localhost:\(port)"] : []) + names.map { $0.lowercased() }
    }

    func allowsHost(_ host: String?) -> Bool {
        guard let host else { return false }
        return hosts.contains(host.lowercased())
    }

    /// A browser sends `Origin` on every POST; a program may send none. The origin's
    /// scheme must be the request's: a page served over plain HTTP (which anyone on the
    /// path may have written) is not the HTTPS gateway's.
    func allowsOrigin(_ origin: String?, secure: Bool = false) -> Bool {
        guard let origin else { return true }
        let scheme = secure ? "https://" : "http://"
        return hosts.contains { scheme + $0 == origin.lowercased() }
    }

    /// What a state-changing request must carry: the header, and no foreign origin.
    func allowsChange(marker: String?, origin: String?, secure: Bool = false) -> Bool {
        marker == "1" && allowsOrigin(origin, secure: secure)
    }
}
