// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The `reload` command, what `systemctl reload curatord` runs through curatorctl
/// (ExecReload=, issue 13 item 6: a minimal Debian has no kill(1)). It answers once
/// the new configuration is in force, refuses a broken file with the reason, and
/// may be sent only by root or the daemon's own user.
@Suite(.serialized)
struct ReloadCommandTests {
    static let otherUID: UInt32 = 4244

    @Test func theAnswerComesWhenTheNewRootsAreInForce() throws {
        let daemon = try SystemdReloadTests.daemon(roots: ["pics"])
        daemon.launch = .socketActivated
        let notify = try NotifyListener(path: daemon.home.sub("notify.sock"))
        daemon.notify = notify
        Files.write(daemon.root("pics") + "/a.jpg")
        let more = daemon.home.mkdir("more")
        Files.write(more + "/old.jpg")
        try daemon.start()
        try notify.waitFor("READY=1")
        let client = try daemon.client()
        let ids = try client.idsByPath()
        let before = NotifyListener.now()

        SystemdReloadTests.writeConfig(daemon, roots: ["pics", "more"])
        let result = try client.result(["cmd": "reload"])
        #expect(result["roots"] as? [String] == ["pics", "more"])
        #expect(result["added"] as? [String] == ["more"])
        #expect(result["removed"] as? [String] == [])
        #expect(result["restart_needed"] as? [String] == [])
        // In force when answered: no waiting for a log line. The new root is listed
        // and watched (its scan was started before the answer).
        #expect(try SystemdReloadTests.rootNames(client) == ["pics", "more"])
        try daemon.waitForScanToFinish()
        Files.write(more + "/new.jpg")
        try client.sync()
        #expect(try client.idsByPath(["root": "more"]).keys.sorted() == ["new.jpg", "old.jpg"])
        #expect(try client.idsByPath(["root": "pics"]) == ids)
        // systemd is told, as for SIGHUP.
        let reloading = try #require(notify.lines(startingWith: "RELOADING=1").first { $0.at >= before })
        #expect(notify.lines(startingWith: "READY=1").contains { $0.at >= reloading.at })
        #expect(daemon.logText.contains("reloaded the configuration (asked by uid 0)"))
        #expect(daemon.stop() == 0)
    }

    /// The top-level `photos` is the roots' `photos`: a root a reload removes leaves
    /// it, though its photos stay indexed and come back with their ids when the root
    /// does (issue 56 point 2: it said 72 against the roots' 69).
    @Test func aRemovedRootsPhotosLeaveTheTopLevelCount() throws {
        let daemon = try SystemdReloadTests.daemon(roots: ["pics", "more"])
        for name in ["a", "b", "c"] { Files.write(daemon.root("pics") + "/\(name).jpg") }
        for name in ["x", "y"] { Files.write(daemon.root("more") + "/\(name).jpg") }
        try daemon.start()
        let client = try daemon.client()
        try daemon.waitForScanToFinish()
        func counts() throws -> (top: Int?, roots: [String: Int]) {
            let status = try client.result(["cmd": "status"])
            var roots: [String: Int] = [:]
            for root in status["roots"] as? [[String: Any]] ?? [] {
                if let name = root["name"] as? String { roots[name] = root["photos"] as? Int }
            }
            return (status["photos"] as? Int, roots)
        }
        #expect(try counts().top == 5)
        let moreIDs = try client.idsByPath(["root": "more"])

        SystemdReloadTests.writeConfig(daemon, roots: ["pics"])
        #expect(try client.result(["cmd": "reload"])["removed"] as? [String] == ["more"])
        let after = try counts()
        #expect(after.roots == ["pics": 3])
        #expect(after.top == 3, "the removed root's photos are not counted")

        SystemdReloadTests.writeConfig(daemon, roots: ["pics", "more"])
        _ = try client.result(["cmd": "reload"])
        try daemon.waitForScanToFinish()
        #expect(try counts().top == 5)
        #expect(try client.idsByPath(["root": "more"]) == moreIDs)
        #expect(daemon.stop() == 0)
    }

    @Test func aBrokenFileIsRefusedWithTheReasonAndTheOldOneStays() throws {
        let daemon = try SystemdReloadTests.daemon(roots: ["pics"])
        Files.write(daemon.root("pics") + "/a.jpg")
        try daemon.start()
        let client = try daemon.client()
        let config = daemon.configPath ?? ""

        Files.write(config, #"{ roots: ["\#(daemon.home.sub("nowhere"))"] }"#)
        let refused = try client.request(["cmd": "reload"])
        #expect(refused["ok"] as? Bool == false)
        let error = refused["error"] as? [String: Any] ?? [:]
        #expect(error["code"] as? String == "config_invalid")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("the one in force stays"), "\(message)")
        #expect(message.contains("\(config): roots[0].path: \(daemon.home.sub("nowhere")): No such file or directory"), "\(message)")
        #expect(try SystemdReloadTests.rootNames(client) == ["pics"])

        // curatorctl, as ExecReload= runs it: non-zero with the daemon's reason, so that
        // `systemctl reload` fails and says why.
        Files.write(config, "{ roots: [ this is not json5 ")
        let ctl = try daemon.ctl(["reload"])
        #expect(ctl.status == 1, "\(ctl)")
        #expect(ctl.stderr.contains("curatorctl: The configuration was refused; the one in force stays."), "\(ctl.stderr)")
        #expect(ctl.stderr.contains("\(config): not valid JSON5"), "\(ctl.stderr)")

        // A good file is taken, and curatorctl says what changed, exit 0.
        let more = daemon.home.mkdir("more")
        SystemdReloadTests.writeConfig(daemon, roots: ["pics", "more"], paths: ["more": more])
        let ok = try daemon.ctl(["reload"])
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout == "Reloaded the configuration: 2 roots: pics, more; added more.\n", "\(ok.stdout)")
        #expect(daemon.process?.isRunning == true)
        #expect(daemon.stop() == 0)
    }

    @Test func anotherUserMayNotReload() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to ask as another uid")
            return
        }
        let daemon = try SystemdReloadTests.daemon(roots: ["pics"])
        try daemon.start()
        daemon.letOtherUsersConnect()
        let more = daemon.home.mkdir("more")
        SystemdReloadTests.writeConfig(daemon, roots: ["pics", "more"], paths: ["more": more])

        let ctl = try daemon.ctl(["reload"], asUID: Self.otherUID)
        #expect(ctl.status == 1, "\(ctl)")
        #expect(ctl.stderr.contains("Only root and the user curatord runs as (uid 0) may reload its configuration."), "\(ctl.stderr)")
        let json = try daemon.ctl(["--json", "reload"], asUID: Self.otherUID)
        #expect(json.stdout.contains(#""code":"permission_denied""#), "\(json.stdout)")
        // Nothing was reloaded.
        #expect(try SystemdReloadTests.rootNames(daemon.client()) == ["pics"])
        #expect(!daemon.logText.contains("reloaded the configuration"))
        #expect(daemon.logText.contains("refused a reload asked by uid \(Self.otherUID)"))
        // Its owner may.
        #expect(try daemon.ctl(["reload"]).status == 0)
        #expect(try SystemdReloadTests.rootNames(daemon.client()) == ["pics", "more"])
        #expect(daemon.stop() == 0)
    }
}
