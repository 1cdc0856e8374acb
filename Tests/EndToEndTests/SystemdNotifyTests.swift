// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// curatord started the way systemd starts it: by `systemd-socket-activate`,
/// which listens, hands the socket over and passes NOTIFY_SOCKET and
/// WATCHDOG_USEC, with the test playing systemd's notify end.
@Suite(.serialized)
struct SystemdNotifyTests {
    static func activatedDaemon(watchdogUsec: UInt64? = nil) throws -> (Daemon, NotifyListener) {
        let daemon = Daemon()
        daemon.launch = .socketActivated
        let notify = try NotifyListener(path: daemon.home.sub("notify.sock"))
        daemon.notify = notify
        daemon.watchdogUsec = watchdogUsec
        return (daemon, notify)
    }

    @Test func readyAndStatusArriveAndThePassedSocketIsServed() throws {
        let (daemon, notify) = try Self.activatedDaemon()
        Files.write(daemon.root() + "/a.jpg")
        Files.write(daemon.root() + "/b.jpg")
        try daemon.start()
        // A client may be answered a moment before READY=1 is sent: wait for it.
        try notify.waitFor("READY=1")

        let ready = notify.messages.first { $0.lines.contains("READY=1") }
        #expect(ready != nil, "READY=1 never arrived: \(notify.messages.map(\.text))")
        // READY=1 comes with a STATUS= line in the same message, and more follow with counts.
        #expect(ready?.lines.contains { $0.hasPrefix("STATUS=") } == true)
        try eventually(timeout: 10, "a STATUS= with the photo count") {
            notify.lines(startingWith: "STATUS=").contains { $0.line.contains("2 photos") }
        }

        // The socket systemd-socket-activate made is the one served; the configured one is never created.
        #expect(try daemon.client().result(["cmd": "status"])["photos"] as? Int == 2)
        #expect(!Files.exists(daemon.configuredSocket))
        #expect(daemon.logText.contains("serving the socket systemd passed, \(daemon.socket)"))

        #expect(daemon.stop() == 0)
        #expect(daemon.exitedNormally)
        #expect(notify.lines(startingWith: "STOPPING=1").count == 1)
    }

    @Test func watchdogPingsArriveAtHalfTheInterval() throws {
        // WatchdogSec=1s: a ping every 500 ms.
        let (daemon, notify) = try Self.activatedDaemon(watchdogUsec: 1_000_000)
        try daemon.start()
        try notify.waitFor("READY=1")
        let first = try #require(notify.lines(startingWith: "READY=1").first?.at)
        usleep(3_200_000)
        let pings = notify.lines(startingWith: "WATCHDOG=1").map(\.at).filter { $0 >= first }
        // 3.2 s at one per 0.5 s: about 6; a loaded machine may be late, never much early.
        #expect(pings.count >= 4 && pings.count <= 8, "\(pings.count) pings in 3.2 s")
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 0.4 }, "pings closer than the period: \(gaps)")
        // Systemd would kill us after 1 s without one.
        #expect(gaps.allSatisfy { $0 < 0.9 }, "a gap that would trip the watchdog: \(gaps)")
        #expect(daemon.stop() == 0)
    }

    @Test func noWatchdogPingsWithoutWatchdogUsec() throws {
        let (daemon, notify) = try Self.activatedDaemon()
        try daemon.start()
        usleep(1_500_000)
        #expect(notify.lines(startingWith: "WATCHDOG=1").isEmpty)
        #expect(daemon.stop() == 0)
    }

    @Test func reloadIsAnnouncedWithReloadingAndReady() throws {
        let (daemon, notify) = try Self.activatedDaemon()
        try daemon.start()
        try notify.waitFor("READY=1")
        let before = NotifyListener.now()
        daemon.signal(SIGHUP)
        let reloading = try notify.waitFor("RELOADING=1", after: before)
        #expect(reloading == "RELOADING=1")
        let message = try #require(notify.messages.first { $0.at >= before && $0.lines.contains("RELOADING=1") })
        #expect(message.lines.contains { $0.hasPrefix("MONOTONIC_USEC=") })
        try eventually(timeout: 5, "READY=1 after the reload") {
            !notify.lines(startingWith: "READY=1").filter { $0.at >= message.at }.isEmpty
        }
        #expect(daemon.stop() == 0)
    }

    @Test func startedByHandWithoutSystemdItStillServesAndStops() throws {
        let daemon = Daemon()
        Files.write(daemon.root() + "/a.jpg")
        try daemon.start()
        #expect(try daemon.client().result(["cmd": "status"])["photos"] as? Int == 1)
        #expect(daemon.logText.contains("listening on \(daemon.socket)"))
        #expect(daemon.stop() == 0)
        #expect(daemon.exitedNormally)
        // The socket it made itself is removed.
        #expect(!Files.exists(daemon.socket))
    }

    @Test func journaldStreamGetsPriorityPrefixes() throws {
        let daemon = Daemon()
        // As systemd does: JOURNAL_STREAM names the stream stderr is; here, the log file.
        _ = FileManager.default.createFile(atPath: daemon.logPath, contents: nil)
        var st = stat()
        #expect(stat(daemon.logPath, &st) == 0)
        daemon.extraEnvironment["JOURNAL_STREAM"] = "\(st.st_dev):\(st.st_ino)"
        try daemon.start()
        #expect(daemon.stop() == 0)
        let lines = daemon.logText.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<5>curatord ") }, "\(lines)")
        #expect(lines.contains { $0 == "<5>stopped cleanly" })
        // Every line has a priority and no timestamp.
        #expect(lines.allSatisfy { $0.count > 3 && $0.hasPrefix("<") && $0.dropFirst().first.map { "01234567".contains($0) } == true && $0.dropFirst(2).hasPrefix(">") })
        #expect(!lines.contains { $0.contains("notice:") })
    }

    @Test func inheritedJournalStreamForAnotherStreamIsIgnored() throws {
        let daemon = Daemon()
        daemon.extraEnvironment["JOURNAL_STREAM"] = "1:1"
        try daemon.start()
        #expect(daemon.stop() == 0)
        #expect(daemon.logText.contains(" notice: curatord "))
        #expect(!daemon.logText.contains("<5>"))
    }

    @Test func logLevelFromTheConfigurationFiltersLines() throws {
        let daemon = Daemon()
        let config = daemon.home.sub("curatord.json5")
        Files.write(config, #"{ roots: ["\#(daemon.root())"], log_level: "warning" }"#)
        daemon.configPath = config
        daemon.commandLineLogLevel = nil
        try daemon.start()
        #expect(daemon.stop() == 0)
        #expect(!daemon.logText.contains(" notice: "), "\(daemon.logText)")
        #expect(!daemon.logText.contains(" info: "))
    }
}
