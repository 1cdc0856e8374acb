// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// Small conveniences for the delete, undo and history requests. They send the raw
/// JSON of docs/PROTOCOL.md and hand back raw objects, so the tests check the wire.
extension Client {
    /// Enters select mode (a no-op if already there) and selects `positions`.
    func select(_ positions: String, session: String? = nil) throws {
        var body: [String: Any] = ["cmd": "mode", "mode": "select"]
        if let session { body["session"] = session }
        _ = try result(body)
        body = ["cmd": "select", "positions": positions]
        if let session { body["session"] = session }
        _ = try result(body)
    }

    /// `delete.prepare` on the default session, or with `args` (`ids`, `session`).
    func prepare(_ args: [String: Any] = [:]) throws -> [String: Any] {
        var body = args
        body["cmd"] = "delete.prepare"
        return try result(body)
    }

    func confirm(_ plan: [String: Any]) throws -> [String: Any] {
        guard let token = plan["token"] as? String else { throw HarnessError("no token in \(plan)") }
        return try result(["cmd": "delete.confirm", "token": token])
    }

    /// Prepares and confirms the default session's selection (or `args`).
    func deleteSelection(_ args: [String: Any] = [:]) throws -> [String: Any] { try confirm(try prepare(args)) }

    func undo(_ batch: Int? = nil) throws -> [String: Any] {
        var body: [String: Any] = ["cmd": "undo"]
        if let batch { body["batch"] = batch }
        return try result(body)
    }

    /// The caller's batches, newest first.
    func history() throws -> [[String: Any]] { try result(["cmd": "history"])["batches"] as? [[String: Any]] ?? [] }
}

/// The per-photo lines of a BatchResult or UndoResult.
struct PhotoOutcomes {
    let items: [[String: Any]]
    init(_ result: [String: Any]) { items = result["items"] as? [[String: Any]] ?? [] }
    var paths: [String] { items.compactMap { $0["path"] as? String } }
    var outcomes: [String] { items.compactMap { $0["outcome"] as? String } }
    /// Path → outcome.
    var byPath: [String: String] {
        var map: [String: String] = [:]
        for item in items { if let p = item["path"] as? String { map[p] = item["outcome"] as? String } }
        return map
    }
    func item(_ path: String) -> [String: Any]? { items.first { $0["path"] as? String == path } }
}

extension Daemon {
    /// The home trash (`$XDG_DATA_HOME/Trash`): this daemon's own, never the real one.
    var trashDirectory: String { dataHome + "/Trash" }

    /// Writes `text` as the daemon's JSON5 configuration.
    func useConfig(_ text: String) throws {
        let path = home.sub("curatord.json5")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        configPath = path
    }
}

extension Daemon {
    /// Runs `body`; an error it throws is rethrown with the end of the daemon's log,
    /// which is where the reason for a failed crash test is.
    func explainingFailures<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch {
            let log = logText.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).joined(separator: "\n")
            throw HarnessError("\(error)\n--- end of curatord's log (\(logPath)):\n\(log)")
        }
    }
}
