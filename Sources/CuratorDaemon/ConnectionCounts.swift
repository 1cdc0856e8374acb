// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// Who holds the daemon's connections: how many in all and per uid, so that one
/// user can never take them all (`max_clients_per_user` is well below
/// `max_clients`, and nobody is exempt, root included). Kept by the server; a
/// connection counts from its admission until its thread ends.
struct ConnectionCounts {
    private(set) var total = 0
    private(set) var byUID: [UInt32: Int] = [:]

    /// Connections whose client has gone but whose thread has not ended yet: in all,
    /// and of the uid asking.
    struct Leaving {
        var all = 0
        var mine = 0
    }

    /// Admits a connection of `uid`, or says why not. `leaving` connections are
    /// about to free their places and are not held against anyone.
    mutating func admit(uid: UInt32, maxTotal: Int, maxPerUser: Int, leaving: Leaving = Leaving()) -> ProtocolError? {
        let mine = byUID[uid] ?? 0
        if mine - leaving.mine >= maxPerUser {
            return ProtocolError(.tooManyConnections, "uid \(uid) already has \(mine) connections to curatord, the most one user may "
                                 + "have (max_clients_per_user); close one and try again.")
        }
        if total - leaving.all >= maxTotal {
            return ProtocolError(.tooManyClients, "curatord already serves \(total) clients, its limit (max_clients); try again later.")
        }
        total += 1
        byUID[uid] = mine + 1
        return nil
    }

    mutating func release(uid: UInt32) {
        total -= 1
        let left = (byUID[uid] ?? 1) - 1
        byUID[uid] = left > 0 ? left : nil
    }
}
