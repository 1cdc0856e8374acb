// SPDX-License-Identifier: GPL-2.0-or-later

/// Every command of the protocol by its wire name (`cmd`): `Curator.answer` finds
/// a request's handler here. A test holds it to `Command.names` and to the
/// sections of docs/PROTOCOL.md.
///
/// Adding a command: its request and result types (and its `Command` case) in
/// CuratorProtocol, one file in this folder, one line here, its section in
/// docs/PROTOCOL.md.
enum CommandTable {
    static let handlers: [String: any CommandHandler.Type] = [
        "hello": HelloCommand.self,
        "status": StatusCommand.self,
        "list": ListCommand.self,
        "subscribe": SubscribeCommand.self,
        "rescan": RescanCommand.self,
        "sync": SyncCommand.self,
        "reload": ReloadCommand.self,
        "view": ViewCommand.self,
        "mode": ModeCommand.self,
        "select": SelectCommand.self,
        "deselect": DeselectCommand.self,
        "toggle": ToggleCommand.self,
        "clear": ClearCommand.self,
        "selection": SelectionCommand.self,
        "reorder": ReorderCommand.self,
        "delete.prepare": DeletePrepareCommand.self,
        "delete.confirm": DeleteConfirmCommand.self,
        "delete.cancel": DeleteCancelCommand.self,
        "undo": UndoCommand.self,
        "history": HistoryCommand.self,
        "trash.list": TrashListCommand.self,
        "trash.empty": TrashEmptyCommand.self,
        "thumbnail": ThumbnailCommand.self,
        "photo.info": PhotoInfoCommand.self,
        "rate": RateCommand.self,
        "photo.open": PhotoOpenCommand.self,
    ]
}
