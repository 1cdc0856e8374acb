// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A subscriber that stops reading has at most 16 MiB of events queued for it;
/// past that, events are dropped and one `dropped` event says so (docs/PROTOCOL.md).
/// Once it has read what was queued, events flow again.
@Suite(.serialized)
struct SlowSubscriberTests {
    static let queuedEventLimit = 16 << 20

    @Test func aSubscriberThatStopsReadingIsToldEventsWereDropped() throws {
        let daemon = try PipeliningTests.daemon(photos: 5000)
        let control = try daemon.client()
        // Several sessions each holding every photo: each photo that leaves the disk
        // renumbers all of them, one `selection` event of ~500 kB per session.
        let sessions = 8
        for s in 1...sessions {
            _ = try control.result(["cmd": "mode", "session": "s\(s)", "mode": "select"])
            #expect(try control.result(["cmd": "select", "session": "s\(s)", "all": true])["count"] as? Int == 5000)
        }
        let subscriber = try daemon.client()
        _ = try subscriber.result(["cmd": "subscribe"])
        // It reads nothing from now on, while photos leave one burst at a time.
        let pid = daemon.pid
        let before = PipeliningTests.residentKiB(pid)
        // Thirty-two bursts, 128 MB of events told one by one: a loaded daemon may
        // tell close ones in one `selection` event a session (eight of them stayed
        // under the 16 MiB; sixteen did once, on a CI host under load), and even four
        // told as one still pass the limit twice over.
        let bursts = 32
        for i in 0..<bursts {
            unlink(daemon.root() + "/2024-\(i % 8)/IMG_\(i / 8).JPG")
            try control.sync()
        }
        let after = PipeliningTests.settledKiB(pid)
        print("a subscriber that does not read: resident \(before / 1024) MB -> \(after / 1024) MB")

        // Now it reads: events up to the limit, the notice, and nothing dropped silently.
        var eventBytes = 0
        var dropped = false
        var selectionEvents = 0
        // Until the notice a pause means a loaded machine, not the end: wait longer for it.
        while let line = try subscriber.readLine(timeout: dropped ? 3 : 20) {
            let head = String(decoding: line.prefix(64), as: UTF8.self)
            if head.hasPrefix(#"{"event":"dropped""#) {
                #expect(!dropped, "one notice per run of dropped events")
                dropped = true
                continue
            }
            if !dropped { eventBytes += line.count + 1 }
            if head.contains(#""event":"selection""#) { selectionEvents += 1 }
        }
        #expect(dropped, "\(selectionEvents) selection events, \(eventBytes) bytes, and no dropped event")
        #expect(eventBytes <= Self.queuedEventLimit + (1 << 20), "\(eventBytes) bytes of events were queued")
        #expect(selectionEvents < bursts * sessions, "some events were dropped")

        // Caught up: events come again.
        unlink(daemon.root() + "/2024-9/IMG_0.JPG")
        try control.sync()
        let next = try #require(try subscriber.nextEvent(timeout: 10), "no event after catching up")
        #expect(next["event"] as? String == "removed" || next["event"] as? String == "selection", "\(next)")
    }
}
