// SPDX-License-Identifier: GPL-2.0-or-later

/// The reverse proxies whose word is taken about a request: from one of these
/// addresses, `X-Forwarded-For` names the client and `X-Forwarded-Proto` the scheme the
/// browser used. From anyone else both headers are ignored (a client could write any
/// address, or claim HTTPS to get a `Secure` cookie's treatment over plain HTTP).
struct TrustedProxies: Sendable {
    let addresses: Set<String>

    init(_ addresses: [String] = []) {
        self.addresses = Set(addresses)
    }

    /// Who asked and whether over HTTPS. `peer` is the TCP peer; `tls` whether this
    /// connection is TLS itself.
    func resolve(peer: String?, tls: Bool, forwardedFor: String?, forwardedProto: String?) -> (client: String?, secure: Bool) {
        guard let peer, addresses.contains(peer) else { return (peer, tls) }
        // The proxy appends the address it saw to what it was sent: the last entry is
        // the one it vouches for.
        let client = forwardedFor?.split(separator: ",").last.map { String($0.drop { $0 == " " }).trimmingTrailingSpaces } ?? peer
        let proto = forwardedProto?.split(separator: ",").last.map { String($0.drop { $0 == " " }).trimmingTrailingSpaces.lowercased() }
        return (client.isEmpty ? peer : client, proto.map { $0 == "https" } ?? tls)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
