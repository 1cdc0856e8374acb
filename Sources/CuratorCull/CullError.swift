// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Glibc

/// Why the grid stopped other than by the user's `q`.
public enum CullError: Error {
    case notATerminal
    case system(String, Int32)
    /// The daemon closed the connection or it broke.
    case connectionLost(String)
    /// The daemon refused something the grid cannot go on without (the first listing).
    case daemon(ProtocolError)
    case protocolMismatch(String)

    /// curatorctl's exit status for it: 4 for a lost connection, as for every command.
    public var exitCode: Int32 {
        switch self {
        case .notATerminal: 2
        case .system: 1
        case .connectionLost, .protocolMismatch: 4
        case .daemon: 1
        }
    }

    public var message: String {
        switch self {
        case .notATerminal:
            "cull needs a terminal on its standard input and output (run it in a terminal, or over `ssh -t`)."
        case .system(let call, let code):
            "\(call) failed: \(String(cString: strerror(code)))"
        case .connectionLost(let why):
            "lost the connection to curatord: \(why)"
        case .daemon(let error):
            error.message
        case .protocolMismatch(let why):
            "curatord answered something this curatorctl does not understand: \(why)"
        }
    }
}
