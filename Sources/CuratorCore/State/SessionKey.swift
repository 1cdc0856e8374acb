// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// A session is named and owned by one Unix user: the key always carries the
/// requester's uid, so one user can never name another's session.
struct SessionKey: Hashable {
    var uid: UInt32
    var name: String

    static let defaultName = "default"

    static func validate(_ name: String?) -> String? {
        guard let name else { return defaultName }
        guard (1...64).contains(name.count), name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else { return nil }
        return name
    }

    /// The session a request names (`session`, or the default) for the user asking.
    static func named(_ name: String?, uid: UInt32) throws(ProtocolError) -> SessionKey {
        guard let valid = validate(name) else { throw invalidName(argument: "session") }
        return SessionKey(uid: uid, name: valid)
    }

    static func invalidName(argument: String) -> ProtocolError {
        ProtocolError(.invalidArgument, "A session name is 1-64 letters, digits, '-', '_' or '.'.", argument: argument)
    }
}
