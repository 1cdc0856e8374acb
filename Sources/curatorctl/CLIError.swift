// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What can go wrong in curatorctl, each with the exit code it leaves. (A command
/// line that cannot be run is a `CommandLineError`, exit code 2, before any of these.)
enum CLIError: Error {
    case daemonUnreachable(path: String, reason: SystemError)
    /// The socket is there, but this user may not open it (EACCES): the daemon may be running.
    case socketForbidden(explanation: String)
    case daemon(ProtocolError)
    case connectionLost(String)
    case protocolMismatch(String)
    case cancelled
    /// The request was carried out, but it did nothing (`nothingDone`) or only part of
    /// what was asked: the lines above say, per photo, why. Scripts must not take it
    /// for a success.
    case incomplete(String, nothingDone: Bool)
    /// `cull` stopped for a reason other than `q` (the terminal is restored by then).
    case cull(String, exitCode: Int32)
    /// Something curatorctl does itself failed (a file, a child process): exit 1.
    case failed(String)
    /// The words name nothing there is (a place in no root, a folder of several): exit 2.
    case usage(String)

    /// The daemon speaks another protocol version than this curatorctl.
    static func otherProtocol(_ hello: HelloResult) -> CLIError {
        .protocolMismatch("it speaks protocol \(hello.protocolVersion) and this curatorctl protocol "
                          + "\(ProtocolInfo.version); use the curatorctl of curatord \(hello.version)")
    }

    var exitCode: Int32 {
        switch self {
        case .daemonUnreachable, .socketForbidden: 3
        // curatord finds an argument the user typed invalid (a date, a count): wrong usage.
        case .daemon(let error) where error.code == .invalidArgument: 2
        case .daemon, .failed: 1
        case .usage: 2
        case .connectionLost, .protocolMismatch: 4
        case .cancelled: 5
        case .incomplete(_, let nothingDone): nothingDone ? 6 : 7
        case .cull(_, let code): code
        }
    }

    /// A sentence for people.
    var message: String {
        switch self {
        case .daemonUnreachable(let path, let reason):
            let why = reason.errno == .noEntry ? "there is no socket at \(path)"
                : reason.errno == .connectionRefused ? "nothing is listening on \(path)"
                : "\(path): \(reason.errno.message)"
            return """
                curatord is not running (\(why)).
                Start it with:  curatord --root ~/Pictures
                or as a service: systemctl --user start curatord
                or point curatorctl at its socket with --socket PATH (or $CURATORD_SOCKET).
                """
        case .socketForbidden(let explanation):
            return explanation
        case .daemon(let error):
            return error.message
        case .connectionLost(let text):
            return "lost the connection to curatord: \(text)"
        case .protocolMismatch(let text):
            return "curatord answered something this curatorctl does not understand: \(text)"
        case .cancelled:
            return "Nothing was changed."
        case .incomplete(let text, _), .cull(let text, _), .failed(let text), .usage(let text):
            return text
        }
    }
}
