// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch.RemoteShare {
    /// One batch slot a root: a batch hanging on a share whose server stopped
    /// answering holds that share, and only it. Another client's batch and undo on a
    /// local root finish at once; a second batch on the hung share is `batch_running`
    /// naming it; when the server answers, the hung batch completes.
    @Test func aBatchHangingOnAShareHoldsOnlyThatRoot() throws {
        let s = try Self.setUp(photos: ["a.jpg", "b.jpg"])
        defer {
            s.share.resume()
            s.daemon.stop()
        }
        for n in 0..<3 { Files.write(s.daemon.root("pics") + "/p\(n).jpg", "local photo \(n)") }
        let c = try s.daemon.client()
        try c.sync()
        let nas = try c.idsByPath(["root": "nas"])
        let local = try c.idsByPath(["root": "pics"])
        try #require(nas.count == 2 && local.count == 3, "\(nas) \(local)")
        // Plans are made while the server answers; the confirms come once it hangs.
        let hungPlan = try c.prepare(["ids": [try #require(nas["a.jpg"])]])
        let secondPlan = try c.prepare(["ids": [try #require(nas["b.jpg"])]])
        let hungToken = try #require(hungPlan["token"] as? String)

        s.share.hang()
        let hung = try s.daemon.client()
        try hung.sendLine(#"{"id":1,"cmd":"delete.confirm","token":"\#(hungToken)"}"#)
        try eventually(timeout: 10, "the batch on the share to start") { try c.status()["batch_running"] as? Bool == true }
        #expect(try c.rootStatus("nas")["batch_running"] as? Bool == true)
        #expect(try c.rootStatus("pics")["batch_running"] as? Bool == false)
        try #require(try hung.readObject(timeout: 0.5) == nil, "the batch on the hung share answered: it did not hang")

        // Another client's batch and undo on the local root go through at once.
        let other = try s.daemon.client()
        var started = Date()
        let batch = try other.confirm(try other.prepare(["ids": [try #require(local["p0.jpg"]), try #require(local["p1.jpg"])]]))
        var seconds = Date().timeIntervalSince(started)
        #expect(seconds < 2, "a batch on a local root took \(seconds) s beside one hanging on a share")
        #expect(batch["trashed"] as? Int == 2, "\(batch)")
        #expect(!Files.exists(s.daemon.root("pics") + "/p0.jpg"))
        started = Date()
        let undo = try other.undo(try #require(batch["batch"] as? Int))
        seconds = Date().timeIntervalSince(started)
        #expect(seconds < 2, "an undo on a local root took \(seconds) s beside a batch hanging on a share")
        #expect(undo["restored"] as? Int == 2, "\(undo)")
        #expect(Files.exists(s.daemon.root("pics") + "/p0.jpg"))
        // And the history, which reads the journal the hung batch writes to.
        started = Date()
        _ = try other.history()
        #expect(Date().timeIntervalSince(started) < 2)

        // A second batch on the hung share: refused at once, naming the root it waits for.
        started = Date()
        let refused = try c.request(["cmd": "delete.confirm", "token": try #require(secondPlan["token"] as? String)], timeout: 10)
        #expect(Date().timeIntervalSince(started) < 2)
        let error = refused["error"] as? [String: Any] ?? [:]
        #expect(error["code"] as? String == "batch_running", "\(refused)")
        #expect(error["root"] as? String == "nas", "\(refused)")
        #expect((error["message"] as? String ?? "").contains("\"nas\""), "\(refused)")

        // The server answers again: the hung batch completes, and the share takes batches again.
        s.share.resume()
        let answer = try #require(try hung.readObject(timeout: 60), "the batch on the share never answered")
        let result = answer["result"] as? [String: Any] ?? [:]
        #expect(answer["ok"] as? Bool == true && result["trashed"] as? Int == 1, "\(answer)")
        #expect(!Files.exists(s.serverRoot + "/a.jpg"))
        try eventually(timeout: 10, "the share's slot to be given back") { try c.rootStatus("nas")["batch_running"] as? Bool == false }
        let again = try c.deleteSelection(["ids": [try #require(nas["b.jpg"])]])
        #expect(again["trashed"] as? Int == 1, "\(again)")
        #expect(try c.status()["batch_running"] as? Bool == false)
    }
}
