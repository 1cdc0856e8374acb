// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// The client a command answers: its credentials (SO_PEERCRED) and its connection.
struct Caller {
    let credentials: PeerCredentials
    /// The asking connection's event side: what it subscribes with, and the
    /// origin whose own changes are its answer rather than events for it.
    let connection: (any EventSink)?

    init(_ credentials: PeerCredentials, connection: (any EventSink)?) {
        self.credentials = credentials
        self.connection = connection
    }

    /// A user asking without a connection (tests, and steps run on a user's behalf).
    init(uid: UInt32, gid: UInt32 = 0) {
        self.init(PeerCredentials(pid: getpid(), uid: uid, gid: gid), connection: nil)
    }

    var uid: UInt32 { credentials.uid }
    var origin: ObjectIdentifier? { connection.map { ObjectIdentifier($0) } }
}
