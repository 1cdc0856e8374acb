// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The journal failing in the middle of a batch (issue 11 point 20): the client is
/// told `journal_failed` with what the disk holds, not `internal_error` ("nothing
/// was half-done", which was false), the failure is logged once with the file and
/// the error, and the next start settles the batch.
@Suite(.serialized)
struct JournalFailureTests {
    /// Fills the file system of `directory` to the last byte; returns the filler's path.
    static func fill(_ directory: String) -> String {
        let path = directory + "/filler"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return path }
        defer { close(fd) }
        for size in [1 << 16, 4096, 512, 1] {
            let chunk = [UInt8](repeating: 0, count: size)
            while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, size) }) == size {}
        }
        return path
    }

    @Test func aJournalThatFailsMidBatchIsReportedAndLoggedAndTheNextStartSettlesIt() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/mount") else {
            print("skipped: needs root and mount to give the state directory a file system that fills up")
            return
        }
        let daemon = Daemon()
        // The state directory on a small file system of its own, filled mid-batch.
        guard DeletePermissionTests.mountScratch(daemon.stateDir) else { return }
        defer {
            daemon.stop()
            DeletePermissionTests.unmount(daemon.stateDir)
        }
        daemon.extraEnvironment["CURATORD_BATCH_CHUNK"] = "4"
        let count = 1500
        for i in 0..<count { Files.write(daemon.root() + "/p\(i).jpg", "photo \(i)") }
        try daemon.start()
        let client = try daemon.client()
        _ = try client.result(["cmd": "mode", "mode": "select"])
        _ = try client.result(["cmd": "select", "all": true])
        let plan = try client.result(["cmd": "delete.prepare"])
        let token = try #require(plan["token"] as? String)

        let confirming = try daemon.client()
        try confirming.sendLine(#"{"id":1,"cmd":"delete.confirm","token":"\#(token)"}"#)
        let trashFiles = daemon.dataHome + "/Trash/files"
        try eventually(timeout: 20, "the batch to start trashing") {
            ((try? FileManager.default.contentsOfDirectory(atPath: trashFiles))?.count ?? 0) >= 5
        }
        let filler = Self.fill(daemon.stateDir)

        let answer = try #require(try confirming.readObject(timeout: 30), "the confirm was never answered")
        let error = answer["error"] as? [String: Any] ?? [:]
        #expect(answer["id"] as? Int == 1)
        #expect(error["code"] as? String == "journal_failed", "\(answer)")
        let message = error["message"] as? String ?? ""
        #expect(message.contains(daemon.stateDir + "/journal.sqlite"), "the file is named: \(message)")
        #expect(message.contains("batch 1 stopped with") && message.contains("of its \(count) photos recorded"), "\(message)")
        #expect(message.contains("next start"), "\(message)")
        let trashedAtFailure = (try? FileManager.default.contentsOfDirectory(atPath: trashFiles))?.count ?? 0
        #expect(trashedAtFailure < count, "the batch finished before the disk filled: the test proves nothing")
        // Logged, once, with the file and the error.
        let logged = daemon.logText.split(separator: "\n").filter { $0.contains("The journal failed") }
        #expect(logged.count == 1, "\(logged)")
        #expect(logged.first.map { $0.contains("error:") && $0.contains("journal.sqlite") && $0.contains("database or disk is full") } == true,
                "\(logged)")

        // Room again: the daemon still serves, but no batch runs before the next start settles this one.
        unlink(filler)
        #expect(try daemon.client().result(["cmd": "status"])["photos"] != nil)
        let again = try daemon.client()
        // The photos the batch moved have left the index (a slow watcher would change
        // the selection between the plan and its confirmation).
        _ = try again.result(["cmd": "sync"])
        _ = try again.result(["cmd": "mode", "session": "other", "mode": "select"])
        _ = try again.result(["cmd": "select", "session": "other", "all": true])
        let second = try again.result(["cmd": "delete.prepare", "session": "other"])
        let refused = try again.request(["cmd": "delete.confirm", "session": "other", "token": second["token"] as? String ?? ""])
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "batch_running", "\(refused)")

        // The next start settles it: every photo in place or in the trash with its .trashinfo.
        #expect(daemon.stop() == 0)
        try daemon.start()
        #expect(daemon.logText.contains("recovered batch 1"), "\(daemon.logText)")
        let inTrash = Set((try? FileManager.default.contentsOfDirectory(atPath: trashFiles)) ?? [])
        let infos = Set(((try? FileManager.default.contentsOfDirectory(atPath: daemon.dataHome + "/Trash/info")) ?? [])
            .map { String($0.dropLast(".trashinfo".count)) })
        #expect(infos == inTrash)
        for i in 0..<count {
            let name = "p\(i).jpg"
            let inPlace = Files.exists(daemon.root() + "/" + name)
            #expect(inPlace != inTrash.contains(name), "\(name): in place \(inPlace), in the trash \(inTrash.contains(name))")
        }
    }
}
