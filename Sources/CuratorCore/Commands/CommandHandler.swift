// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// One command of the protocol: how its request (from `CuratorProtocol`, which
/// names it and types its result) is answered. `CommandTable` lists it. Most
/// commands take one of the two shapes below; `list`, which answers with a
/// stream, answers itself.
protocol CommandHandler: Sendable {
    associatedtype Arguments: ProtocolRequest
    /// Answers: calls `send` once, after everything that can fail, with a line or
    /// a listing. What it throws is the client's answer (`Curator.answer` says how).
    static func respond(to arguments: Arguments, id: RequestID?, caller: Caller, curator: Curator,
                        send: (Curator.Answer) -> Void) throws
}

/// A command that runs whole under the state lock (sessions and selections): its
/// result is encoded there too, with the state's one encoder. It is handed only
/// its `View` of the state (a protocol in `Views/` that `CuratorState` conforms
/// to, given by `view(of:)`): what it may not reach, it cannot touch.
protocol StateCommand: CommandHandler {
    associatedtype Arguments  // restated, so that it is inferred from `run`
    associatedtype View
    static func run(in state: View, _ arguments: Arguments, caller: Caller) throws(ProtocolError) -> Arguments.Result
    /// The state as this command sees it: each view's file says it for its commands.
    static func view(of state: CuratorState) -> View
}

extension StateCommand {
    static func respond(to arguments: Arguments, id: RequestID?, caller: Caller, curator: Curator,
                        send: (Curator.Answer) -> Void) throws {
        let line = try curator.withState { (state) throws(ProtocolError) -> [UInt8] in
            [UInt8](Wire.success(id: id, result: try run(in: view(of: state), arguments, caller: caller), encoder: state.encoder))
        }
        send(.line(line))
    }
}

/// A command that takes the state lock itself, in short steps, around work done
/// outside it (a batch, a sync's wait, the watcher's inbox) or needs none. It is
/// handed only its `View` of the daemon (a protocol in `Views/` that `Curator`
/// conforms to), whose lock gives a narrow view of the state in turn.
protocol CuratorCommand: CommandHandler {
    associatedtype Arguments  // restated, so that it is inferred from `run`
    associatedtype View
    static func run(_ arguments: Arguments, curator: View, caller: Caller) throws -> Arguments.Result
    /// The daemon as this command sees it: each view's file says it for its commands.
    static func view(of curator: Curator) -> View
}

extension CuratorCommand {
    static func respond(to arguments: Arguments, id: RequestID?, caller: Caller, curator: Curator,
                        send: (Curator.Answer) -> Void) throws {
        let result = try run(arguments, curator: view(of: curator), caller: caller)
        send(.line([UInt8](Wire.success(id: id, result: result))))
    }
}
