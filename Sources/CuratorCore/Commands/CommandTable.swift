// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// Every command the daemon answers, in the order docs/PROTOCOL.md lists them:
/// `Wire.decodeRequest` reads a request line's arguments with `known`, and
/// `Curator.answer` finds its handler here by its wire name. A test holds it to
/// the sections of docs/PROTOCOL.md.
///
/// Adding a command: its request type (a `ProtocolRequest`: its name, arguments
/// and result) in CuratorProtocol, its handler in this folder, one line here, its
/// section in docs/PROTOCOL.md.
public enum CommandTable {
    static let handlers: [any CommandHandler.Type] = [
        HelloCommand.self,
        StatusCommand.self,
        ListCommand.self,
        SubscribeCommand.self,
        RescanCommand.self,
        SyncCommand.self,
        ReloadCommand.self,
        ViewCommand.self,
        ModeCommand.self,
        SelectCommand.self,
        DeselectCommand.self,
        ToggleCommand.self,
        ClearCommand.self,
        SelectionCommand.self,
        ReorderCommand.self,
        DeletePrepareCommand.self,
        DeleteConfirmCommand.self,
        DeleteCancelCommand.self,
        UndoCommand.self,
        HistoryCommand.self,
        TrashListCommand.self,
        TrashEmptyCommand.self,
        ThumbnailCommand.self,
        PhotoInfoCommand.self,
        RateCommand.self,
        WebPasswdCommand.self,
        WebLoginCommand.self,
        WebAttachCommand.self,
        WebLogoutCommand.self,
        PhotoOpenCommand.self,
    ]

    /// The request types of `handlers`, for decoding request lines.
    public static let known = KnownRequests(handlers.map { $0.requestType })

    static let byName: [String: any CommandHandler.Type] = Dictionary(
        handlers.map { ($0.requestType.name, $0) }, uniquingKeysWith: { first, _ in first })
}

extension CommandHandler {
    static var requestType: any ProtocolRequest.Type { Arguments.self }
}
