// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Delete tokens and refusals (issue 4 point 1): expired, voided, used, cancelled,
/// empty, protected. Every refusal leaves every photo where it was.
@Suite(.serialized)
struct DeleteTokenTests {
    @Test func anExpiredTokenIsRefusedAndAFreshOneWorks() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 3)
        try d.useConfig("{ roots: [{ path: \"\(d.root())\" }], plan_ttl_seconds: 1 }")
        try d.start()
        let c = try d.client()
        try c.select("1 2")
        let prepared = Date()
        let plan = try c.prepare()
        let ttl = try #require(plan["expires_in_ms"] as? Int)
        #expect(ttl == 1000)
        // Wait out the plan's own deadline (bounded by it), then a margin.
        let expiry = prepared.addingTimeInterval(Double(ttl) / 1000 + 0.2)
        try eventually(timeout: 5, "the plan's deadline") { Date() > expiry }
        let refused = try c.request(["cmd": "delete.confirm", "token": plan["token"] as? String ?? ""])
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "token_expired")
        #expect(try photos.allBack().isEmpty)
        #expect(TrashSnapshot(d.trashDirectory).entries.isEmpty)
        #expect(try c.result(["cmd": "selection"])["count"] as? Int == 2, "a refused plan leaves the selection alone")

        // Within its lifetime the same kind of plan is carried out.
        let result = try c.deleteSelection()
        #expect(result["trashed"] as? Int == 2)
    }

    /// Any change to the selection after the plan voids it: select, deselect, clear,
    /// leaving select mode, changing the view's page (a filter or sort change keeps
    /// the selection, and the plan: SessionTests).
    @Test func aChangeToTheSelectionVoidsThePlan() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 4)
        try d.start()
        let c = try d.client()
        let changes: [[String: Any]] = [
            ["cmd": "select", "positions": "3"],
            ["cmd": "deselect", "positions": "1"],
            ["cmd": "toggle", "positions": "2"],
            ["cmd": "clear"],
            ["cmd": "mode", "mode": "view"],
            ["cmd": "view", "root": "pics", "folder": "2024"],
        ]
        for change in changes {
            _ = try c.result(["cmd": "view", "sort": "name"])
            try c.select("1 2")
            let plan = try c.prepare()
            _ = try c.result(change)
            let code = try c.errorCode(["cmd": "delete.confirm", "token": plan["token"] as? String ?? ""])
            #expect(code == "token_invalid", "after \(change)")
        }
        #expect(try photos.allBack().isEmpty)
        #expect(TrashSnapshot(d.trashDirectory).entries.isEmpty)
    }

    @Test func aUsedOrCancelledTokenIsInvalid() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 4)
        try d.start()
        let c = try d.client()
        try c.select("1")
        let plan = try c.prepare()
        _ = try c.confirm(plan)
        #expect(try c.errorCode(["cmd": "delete.confirm", "token": plan["token"] as? String ?? ""]) == "token_invalid")
        #expect(try c.errorCode(["cmd": "delete.confirm", "token": "0123456789abcdef0123456789abcdef"]) == "token_invalid")

        try c.select("2")
        let cancelled = try c.prepare()
        let cancel = try c.result(["cmd": "delete.cancel", "token": cancelled["token"] as? String ?? ""])
        #expect(cancel["cancelled"] as? Int == 1)
        #expect(try c.errorCode(["cmd": "delete.confirm", "token": cancelled["token"] as? String ?? ""]) == "token_invalid")
        // Only the first plan's photo went.
        #expect(try photos.allBack(Array(photos.relativePaths.dropFirst())).isEmpty)
        #expect(TrashSnapshot(d.trashDirectory).entries.map(\.path) == [photos.absolute(photos.relativePaths[0])])
    }

    /// A token names its plan whatever session the cancel names, or none (issue 56
    /// point 1: the doc's own example, `{"cmd":"delete.cancel","token":T}`, on a plan
    /// of session `del1` answered `cancelled: 0` and a later confirm trashed it).
    @Test func aCancelledTokenIsCancelledWhateverTheSessionItNames() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 4)
        try d.start()
        let c = try d.client()
        try c.select("1 2", session: "del1")
        let plan = try c.prepare(["session": "del1"])
        let token = try #require(plan["token"] as? String)
        #expect(try c.result(["cmd": "delete.cancel", "token": token])["cancelled"] as? Int == 1, "no session named")
        #expect(try c.errorCode(["cmd": "delete.confirm", "token": token]) == "token_invalid")
        #expect(try c.errorCode(["cmd": "delete.confirm", "session": "del1", "token": token]) == "token_invalid")

        let again = try #require(try c.prepare(["session": "del1"])["token"] as? String)
        #expect(try c.result(["cmd": "delete.cancel", "session": "elsewhere", "token": again])["cancelled"] as? Int == 1,
                "another session named")
        #expect(try c.errorCode(["cmd": "delete.confirm", "session": "del1", "token": again]) == "token_invalid")

        // A token no plan has (cancelled already, or never given out) is refused as confirm refuses it.
        #expect(try c.errorCode(["cmd": "delete.cancel", "token": again]) == "token_invalid")
        #expect(try c.errorCode(["cmd": "delete.cancel", "token": "0123456789abcdef0123456789abcdef"]) == "token_invalid")
        // A plan voided by a change to its selection is still the caller's to cancel.
        let voided = try #require(try c.prepare(["session": "del1"])["token"] as? String)
        _ = try c.result(["cmd": "select", "session": "del1", "positions": "3"])
        #expect(try c.result(["cmd": "delete.cancel", "token": voided])["cancelled"] as? Int == 1)
        // Without a token, the session's plans go: the named one's, not another's.
        _ = try c.prepare(["session": "del1"])
        #expect(try c.result(["cmd": "delete.cancel"])["cancelled"] as? Int == 0)
        #expect(try c.result(["cmd": "delete.cancel", "session": "del1"])["cancelled"] as? Int == 1)

        #expect(try photos.allBack().isEmpty)
        #expect(TrashSnapshot(d.trashDirectory).entries.isEmpty, "no photo of a cancelled plan reaches the trash")
    }

    /// An expired plan is cancelled while it is held, and `token_invalid` once a new
    /// plan has made the daemon forget it.
    @Test func anExpiredPlanIsCancelledUntilItIsForgotten() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 3)
        try d.useConfig("{ roots: [{ path: \"\(d.root())\" }], plan_ttl_seconds: 1 }")
        try d.start()
        let c = try d.client()
        try c.select("1", session: "del1")
        let prepared = Date()
        let first = try #require(try c.prepare(["session": "del1"])["token"] as? String)
        let second = try #require(try c.prepare(["session": "del1"])["token"] as? String)
        let expiry = prepared.addingTimeInterval(1.2)
        try eventually(timeout: 5, "the plans' deadline") { Date() > expiry }
        #expect(try c.result(["cmd": "delete.cancel", "token": first])["cancelled"] as? Int == 1)
        _ = try c.prepare(["session": "del1"])
        #expect(try c.errorCode(["cmd": "delete.cancel", "token": second]) == "token_invalid")
        #expect(try photos.allBack().isEmpty)
    }

    /// Only the plan's owner cancels it: another user's cancel of the token is
    /// `token_invalid`, as for a token never given out, and the plan stays (needs root).
    @Test func anotherUsersCancelLeavesThePlanAndRevealsNothing() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv"), Tool.exists("/usr/bin/socat") else {
            print("skipped: needs root, setpriv and socat to send a raw request as another uid")
            return
        }
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 2)
        try d.start()
        d.letOtherUsersConnect()
        let c = try d.client()
        try c.select("1 2", session: "del1")
        let plan = try c.prepare(["session": "del1"])
        let token = try #require(plan["token"] as? String)
        func cancelAsAnother(_ token: String) throws -> String {
            let request = #"{"id":1,"cmd":"delete.cancel","token":"\#(token)"}"# + "\n"
            return try Tool.run("/usr/bin/setpriv", ["--reuid=4242", "--regid=4242", "--clear-groups", "/usr/bin/socat", "-",
                                                     "UNIX-CONNECT:\(d.socket)"], input: request).stdout
        }
        let theirs = try cancelAsAnother(token)
        let unknown = try cancelAsAnother("0123456789abcdef0123456789abcdef")
        #expect(theirs.contains("\"token_invalid\""), "\(theirs)")
        // The same answer, word for word: nothing tells another user the token is someone's.
        #expect(theirs == unknown)
        #expect(try photos.allBack().isEmpty)
        #expect(try c.confirm(plan)["trashed"] as? Int == 2, "the owner's plan survived another user's cancel")
    }

    /// Another user's token is theirs alone (needs root to be another user).
    @Test func aTokenCannotBeConfirmedByAnotherUser() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv"), Tool.exists("/usr/bin/socat") else {
            print("skipped: needs root, setpriv and socat to send a raw request as another uid")
            return
        }
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 2)
        try d.start()
        d.letOtherUsersConnect()
        let c = try d.client()
        try c.select("1 2")
        let plan = try c.prepare()
        let token = try #require(plan["token"] as? String)
        let request = #"{"id":1,"cmd":"delete.confirm","token":"\#(token)"}"# + "\n"
        let other = try Tool.run("/usr/bin/setpriv", ["--reuid=4242", "--regid=4242", "--clear-groups", "/usr/bin/socat", "-",
                                                      "UNIX-CONNECT:\(d.socket)"], input: request)
        #expect(other.stdout.contains("\"token_invalid\""), "\(other)")
        #expect(try photos.allBack().isEmpty)
        #expect(try c.confirm(plan)["trashed"] as? Int == 2)
    }

    @Test func nothingSelectedIsAnEmptySelection() throws {
        let d = Daemon()
        _ = try PhotoSet.make(in: d.root(), count: 2)
        try d.start()
        let c = try d.client()
        #expect(try c.errorCode(["cmd": "delete.prepare"]) == "empty_selection", "view mode")
        _ = try c.result(["cmd": "mode", "mode": "select"])
        #expect(try c.errorCode(["cmd": "delete.prepare"]) == "empty_selection", "select mode, nothing selected")
        #expect(try c.errorCode(["cmd": "delete.prepare", "ids": [Int]()]) == "empty_selection", "no ids")
        #expect(try c.errorCode(["cmd": "delete.prepare", "ids": [987_654]]) == "no_such_photo")
    }

    /// Protected photos cannot be planned, and a folder protected after the plan was
    /// shown (a configuration reload) is protected at confirm time too.
    @Test func protectedPhotosAreRefusedAtPrepareAndAtConfirm() throws {
        let d = Daemon()
        for folder in ["Keep", "Later", "Culls"] {
            try FileManager.default.createDirectory(atPath: d.root() + "/" + folder, withIntermediateDirectories: true)
        }
        Files.write(d.root() + "/Keep/best.jpg", "best")
        Files.write(d.root() + "/Later/maybe.jpg", "maybe")
        Files.write(d.root() + "/Culls/blurry.jpg", "blurry")
        try d.useConfig("{ roots: [{ path: \"\(d.root())\", protected: [\"Keep\"] }] }")
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        let keep = try #require(ids["Keep/best.jpg"])
        let later = try #require(ids["Later/maybe.jpg"])
        let culls = try #require(ids["Culls/blurry.jpg"])

        let refused = try c.request(["cmd": "delete.prepare", "ids": [culls, keep]])
        let error = try #require(refused["error"] as? [String: Any])
        #expect(error["code"] as? String == "protected")
        #expect(error["photos"] as? [Int] == [keep])

        let plan = try c.prepare(["ids": [later, culls]])
        try d.useConfig("{ roots: [{ path: \"\(d.root())\", protected: [\"Keep\", \"Later\"] }] }")
        d.signal(SIGHUP)
        try eventually(timeout: 10, "the reload to protect Later/") {
            try c.photos().first { $0["path"] as? String == "Later/maybe.jpg" }?["protected"] as? Bool == true
        }
        let result = try c.confirm(plan)
        #expect(PhotoOutcomes(result).byPath == ["Later/maybe.jpg": "protected", "Culls/blurry.jpg": "trashed"])
        #expect(Files.read(d.root() + "/Keep/best.jpg") == "best")
        #expect(Files.read(d.root() + "/Later/maybe.jpg") == "maybe")
        #expect(TrashSnapshot(d.trashDirectory).entries.map(\.path) == [d.root() + "/Culls/blurry.jpg"])
    }
}
