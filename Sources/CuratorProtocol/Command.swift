// SPDX-License-Identifier: GPL-2.0-or-later

/// Every command of the protocol, decoded from a request line in this one place.
public enum Command: Sendable {
    case hello(HelloRequest)
    case status(StatusRequest)
    case list(ListRequest)
    case subscribe(SubscribeRequest)
    case rescan(RescanRequest)
    case sync(SyncRequest)
    case reload(ReloadRequest)
    case view(ViewRequest)
    case mode(ModeRequest)
    case select(SelectRequest)
    case deselect(SelectRequest)
    case toggle(SelectRequest)
    case clear(SessionRequest)
    case selection(SessionRequest)
    case reorder(ReorderRequest)
    case deletePrepare(DeletePrepareRequest)
    case deleteConfirm(DeleteConfirmRequest)
    case deleteCancel(DeleteCancelRequest)
    case undo(UndoRequest)
    case history(HistoryRequest)
    case trashList(TrashRequest)
    case trashEmpty(TrashRequest)
    case thumbnail(ThumbnailRequest)
    case photoInfo(PhotoInfoRequest)
    case rate(RateRequest)
    case photoOpen(PhotoOpenRequest)

    /// The wire names, in the order docs/PROTOCOL.md lists them.
    public static let names: [String] = [
        "hello", "status", "list", "subscribe", "rescan", "sync", "reload",
        "view", "mode", "select", "deselect", "toggle", "clear", "selection", "reorder",
        "delete.prepare", "delete.confirm", "delete.cancel", "undo", "history", "trash.list", "trash.empty", "thumbnail",
        "photo.info", "rate", "photo.open",
    ]

    public var name: String {
        switch self {
        case .hello: "hello"
        case .status: "status"
        case .list: "list"
        case .subscribe: "subscribe"
        case .rescan: "rescan"
        case .sync: "sync"
        case .reload: "reload"
        case .view: "view"
        case .mode: "mode"
        case .select: "select"
        case .deselect: "deselect"
        case .toggle: "toggle"
        case .clear: "clear"
        case .selection: "selection"
        case .reorder: "reorder"
        case .deletePrepare: "delete.prepare"
        case .deleteConfirm: "delete.confirm"
        case .deleteCancel: "delete.cancel"
        case .undo: "undo"
        case .history: "history"
        case .trashList: "trash.list"
        case .trashEmpty: "trash.empty"
        case .thumbnail: "thumbnail"
        case .photoInfo: "photo.info"
        case .rate: "rate"
        case .photoOpen: "photo.open"
        }
    }

    /// The arguments, for encoding a request (the CLI's side).
    var arguments: any Encodable {
        switch self {
        case .hello(let a): a
        case .status(let a): a
        case .list(let a): a
        case .subscribe(let a): a
        case .rescan(let a): a
        case .sync(let a): a
        case .reload(let a): a
        case .view(let a): a
        case .mode(let a): a
        case .select(let a), .deselect(let a), .toggle(let a): a
        case .clear(let a), .selection(let a): a
        case .reorder(let a): a
        case .deletePrepare(let a): a
        case .deleteConfirm(let a): a
        case .deleteCancel(let a): a
        case .undo(let a): a
        case .history(let a): a
        case .trashList(let a), .trashEmpty(let a): a
        case .thumbnail(let a): a
        case .photoInfo(let a): a
        case .rate(let a): a
        case .photoOpen(let a): a
        }
    }

    static func decode(name: String, from decoder: any Decoder) throws -> Command? {
        switch name {
        case "hello": .hello(try HelloRequest(from: decoder))
        case "status": .status(try StatusRequest(from: decoder))
        case "list": .list(try ListRequest(from: decoder))
        case "subscribe": .subscribe(try SubscribeRequest(from: decoder))
        case "rescan": .rescan(try RescanRequest(from: decoder))
        case "sync": .sync(try SyncRequest(from: decoder))
        case "reload": .reload(try ReloadRequest(from: decoder))
        case "view": .view(try ViewRequest(from: decoder))
        case "mode": .mode(try ModeRequest(from: decoder))
        case "select": .select(try SelectRequest(from: decoder))
        case "deselect": .deselect(try SelectRequest(from: decoder))
        case "toggle": .toggle(try SelectRequest(from: decoder))
        case "clear": .clear(try SessionRequest(from: decoder))
        case "selection": .selection(try SessionRequest(from: decoder))
        case "reorder": .reorder(try ReorderRequest(from: decoder))
        case "delete.prepare": .deletePrepare(try DeletePrepareRequest(from: decoder))
        case "delete.confirm": .deleteConfirm(try DeleteConfirmRequest(from: decoder))
        case "delete.cancel": .deleteCancel(try DeleteCancelRequest(from: decoder))
        case "undo": .undo(try UndoRequest(from: decoder))
        case "history": .history(try HistoryRequest(from: decoder))
        case "trash.list": .trashList(try TrashRequest(from: decoder))
        case "trash.empty": .trashEmpty(try TrashRequest(from: decoder))
        case "thumbnail": .thumbnail(try ThumbnailRequest(from: decoder))
        case "photo.info": .photoInfo(try PhotoInfoRequest(from: decoder))
        case "rate": .rate(try RateRequest(from: decoder))
        case "photo.open": .photoOpen(try PhotoOpenRequest(from: decoder))
        default: nil
        }
    }
}
