// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    /// Events as a client written from docs/PROTOCOL.md alone reads them: every kind
    /// the daemon sends in a real run has exactly the keys the document lists, and
    /// none has a top-level `id`, the key a client matches responses by.
    @Suite struct EventShapes {
        /// docs/PROTOCOL.md's table of events: the keys each kind always has, and those it may have.
        static let documented: [String: (always: Set<String>, maybe: Set<String>)] = [
            "added": (["root", "photo"], []),
            "changed": (["root", "photo"], []),
            "moved": (["root", "photo", "from"], []),
            "removed": (["root", "photo_id", "from"], []),
            "offline": (["root", "message"], []),
            "online": (["root"], []),
            "scan": (["root", "state"], ["count"]),
            "scanned": (["root", "folder", "count"], []),
            "overflow": (["message"], []),
            "selection": (["session", "mode", "view", "cap", "count", "bytes", "hidden", "items"], []),
            "batch": (["state", "done", "total"], ["photo_id", "outcome", "batch"]),
            "dropped": (["message"], []),
            // Sent when the files this test writes happen to form a duplicate set.
            "sets": (["state", "count"], []),
        ]

        @Test func everyEventHasItsDocumentedKeysAndNoID() throws {
            let daemon = Daemon()
            let root = daemon.root()
            Files.mkdir(root + "/sub")
            for name in ["a", "b", "c", "d"] { Files.write(root + "/sub/\(name).jpg", name) }
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            var ids = try c.idsByPath()

            Files.write(root + "/new.jpg")                                   // added
            Files.write(root + "/sub/a.jpg", "a, longer now")              // changed
            Files.rename(root + "/sub/b.jpg", root + "/b-renamed.jpg")       // moved
            try c.sync()
            _ = try c.result(["cmd": "rescan"])                           // scan started, scan done
            try daemon.waitForScanToFinish()
            try c.select("1-5")
            try #require(try c.result(["cmd": "selection"])["count"] as? Int == 5)
            Files.remove(root + "/sub/c.jpg")                                // removed, selection
            try c.sync()
            _ = try c.result(["cmd": "mode", "mode": "view"])
            let d = try #require(ids["sub/d.jpg"])
            let batch = try #require(try c.deleteSelection(["ids": [d]])["batch"] as? Int)
            _ = try c.undo(batch)                                            // batch events, both ways
            try c.sync()

            Files.rename(root, root + ".away")                               // offline
            try eventually(timeout: 10, "the root to go offline") { try c.rootStatus()["online"] as? Bool == false }
            Files.write(root + ".away/while-away.jpg")                       // scanned (the return's first scan)
            Files.rename(root + ".away", root)                               // online
            try eventually(timeout: 10, "the root to come back") {
                let s = try c.rootStatus()
                return s["online"] as? Bool == true && s["scanning"] as? Bool == false
            }

            // More events than the kernel queue holds while the daemon is stopped: overflow.
            let queued = Int(Files.read("/proc/sys/fs/inotify/max_queued_events")?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
            Files.mkdir(root + "/burst")
            try c.sync()  // burst is watched
            daemon.signal(SIGSTOP)
            var stopped = true
            defer { if stopped { daemon.signal(SIGCONT) } }
            for i in 0..<(queued + 200) {
                let fd = open(root + "/burst/\(i).txt", O_CREAT | O_WRONLY, 0o644)
                if fd >= 0 { close(fd) }
            }
            daemon.signal(SIGCONT)
            stopped = false
            try #require(try c.result(["cmd": "sync", "timeout_ms": 60_000], timeout: 90)["synced"] as? Bool == true)

            ids = try c.idsByPath()
            #expect(ids["sub/d.jpg"] != nil)
            var events: [[String: Any]] = []
            while let line = try watcher.readLine(timeout: 1) {
                events.append(try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]))
            }
            var kinds: Set<String> = []
            for event in events {
                #expect(event["id"] == nil, "an event with a top-level id: \(event)")
                let kind = try #require(event["event"] as? String, "\(event)")
                kinds.insert(kind)
                let documented = try #require(Self.documented[kind], "an event kind the document does not list: \(event)")
                let keys = Set(event.keys).subtracting(["event"])
                #expect(documented.always.isSubset(of: keys), "\(kind) lacks \(documented.always.subtracting(keys)): \(event)")
                #expect(keys.isSubset(of: documented.always.union(documented.maybe)),
                        "\(kind) has keys the document does not list: \(keys.subtracting(documented.always.union(documented.maybe)))")
            }
            // Every kind but `dropped` (16 MiB of unread events; its shape is a unit test's)
            // and `sets` (StackTests has it), which this run need not bring.
            #expect(kinds.subtracting(["sets"]) == Set(Self.documented.keys).subtracting(["dropped", "sets"]), "\(kinds)")
        }
    }
}
