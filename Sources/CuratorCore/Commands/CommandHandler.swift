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
/// result is encoded there too, with the state's one encoder.
protocol StateCommand: CommandHandler {
    associatedtype Arguments  // restated, so that it is inferred from `run`
    static func run(in state: CuratorState, _ arguments: Arguments, caller: Caller) throws(ProtocolError) -> Arguments.Result
}

extension StateCommand {
    static func respond(to arguments: Arguments, id: RequestID?, caller: Caller, curator: Curator,
                        send: (Curator.Answer) -> Void) throws {
        let line = try curator.withState { (state) throws(ProtocolError) -> [UInt8] in
            [UInt8](Wire.success(id: id, result: try run(in: state, arguments, caller: caller), encoder: state.encoder))
        }
        send(.line(line))
    }
}

/// A command that takes the state lock itself, in short steps, around work done
/// outside it (a batch, a sync's wait, the watcher's inbox) or needs none.
protocol CuratorCommand: CommandHandler {
    associatedtype Arguments  // restated, so that it is inferred from `run`
    static func run(_ arguments: Arguments, curator: Curator, caller: Caller) throws -> Arguments.Result
}

extension CuratorCommand {
    static func respond(to arguments: Arguments, id: RequestID?, caller: Caller, curator: Curator,
                        send: (Curator.Answer) -> Void) throws {
        let result = try run(arguments, curator: curator, caller: caller)
        send(.line([UInt8](Wire.success(id: id, result: result))))
    }
}
