// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// One state directory, one daemon (issue 11 point 1): a second curatord on a live
/// daemon's state must refuse to start, naming the pid that holds it, and touch
/// nothing; before the lock it ran recovery on the first one's running batch.
@Suite(.serialized)
struct StateLockTests {
    /// Runs curatord with `arguments`; nil when it was still running after `timeout`
    /// seconds (then killed).
    static func runDaemon(_ daemon: Daemon, _ arguments: [String], timeout: Double = 15) throws -> Tool.Output? {
        let scratch = TestDirectory("second")
        let outPath = scratch.sub("out")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Daemon.curatord)
        p.arguments = arguments
        p.environment = daemon.environment
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            return nil
        }
        p.waitUntilExit()
        return Tool.Output(status: p.terminationStatus, stdout: Files.read(outPath) ?? "", stderr: "")
    }

    /// The bytes of the state files of the journal, to see that nobody wrote them.
    static func journalFiles(_ daemon: Daemon) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["journal.sqlite", "journal.sqlite-wal"] {
            files[name] = FileManager.default.contents(atPath: daemon.stateDir + "/" + name)
        }
        return files
    }

    @Test func aSecondDaemonOnTheSameStateRefusesToStartNamingTheFirst() throws {
        let first = Daemon()
        for i in 0..<3 { Files.write(first.root() + "/p\(i).jpg", "photo \(i)") }
        try first.start()
        defer { first.stop() }
        // A batch in the journal, as in the attack: the second must not touch it.
        let client = try first.client()
        _ = try client.result(["cmd": "mode", "mode": "select"])
        _ = try client.result(["cmd": "select", "positions": "1"])
        let plan = try client.result(["cmd": "delete.prepare"])
        _ = try client.result(["cmd": "delete.confirm", "token": plan["token"] as? String ?? ""])
        // The first daemon checkpoints its journal after a batch, on a thread of its own:
        // wait until the files hold still.
        var journalBefore = Self.journalFiles(first)
        try eventually(timeout: 10, "the journal's checkpoint after the batch") {
            usleep(300_000)
            let now = Self.journalFiles(first)
            defer { journalBefore = now }
            return now == journalBefore
        }
        #expect(journalBefore["journal.sqlite"] != nil)

        // The lock file: 0600, holding the first daemon's pid.
        let lockPath = first.stateDir + "/curatord.lock"
        var st = stat()
        #expect(lstat(lockPath, &st) == 0 && st.st_mode & 0o7777 == 0o600)
        #expect(Files.read(lockPath) == "\(first.pid)\n")

        // Another socket, so that only the state is shared.
        let second = try #require(try Self.runDaemon(first, [
            "--root", first.root(), "--socket", first.home.sub("second.sock"), "--state-dir", first.stateDir,
        ]), "the second daemon started on a live daemon's state and kept running")
        #expect(second.status != 0)
        #expect(second.stdout.contains("pid \(first.pid)"), "\(second.stdout)")
        #expect(second.stdout.contains(lockPath), "\(second.stdout)")
        #expect(!second.stdout.contains("recovered"))
        #expect(!Files.exists(first.home.sub("second.sock")), "it stopped before listening")
        #expect(Self.journalFiles(first) == journalBefore, "the journal was written by the second daemon")
        #expect(Files.read(lockPath) == "\(first.pid)\n")

        // The first is untouched and serves on.
        #expect(try first.client().result(["cmd": "status"])["pid"] as? Int == Int(first.pid))
        #expect(try first.client().result(["cmd": "history"])["batches"] as? [[String: Any]] != nil)

        // --check-config does not take the lock: checking the settings of a running daemon works.
        let check = try #require(try Self.runDaemon(first, ["--check-config", "--root", first.root(),
                                                            "--state-dir", first.stateDir]))
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func theLockGoesWithTheProcessEvenAfterKill9() throws {
        let daemon = Daemon()
        Files.write(daemon.root() + "/a.jpg")
        try daemon.start()
        let firstPID = daemon.pid
        daemon.kill9()
        // The kernel dropped the lock with the process: the next start takes it over.
        try daemon.start()
        #expect(daemon.pid != firstPID)
        #expect(Files.read(daemon.stateDir + "/curatord.lock") == "\(daemon.pid)\n")
        #expect(daemon.stop() == 0)
        // A clean stop leaves the file (removing it would race a third daemon) but not the lock.
        #expect(Files.exists(daemon.stateDir + "/curatord.lock"))
        try daemon.start()
        #expect(daemon.stop() == 0)
    }
}
