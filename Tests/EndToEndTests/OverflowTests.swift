// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    @Suite struct Overflow {
        /// More events than the kernel queue holds while the daemon is stopped: the
        /// overflow triggers a rescan and the index equals what `find` lists.
        @Test func anOverflowIsRepairedByARescan() throws {
            let queued = Int(Files.read("/proc/sys/fs/inotify/max_queued_events")?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
            // Two events per file written (create, close-write): well past the queue.
            let count = max(20_000, queued + 4000)
            let daemon = Daemon()
            let root = daemon.root()
            for d in 0..<4 { Files.mkdir(root + "/d\(d)") }
            for i in 0..<100 { Files.write(root + "/d0/old\(i).jpg", "old \(i)") }
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            let before = try c.idsByPath()

            daemon.signal(SIGSTOP)
            var stopped = true
            defer { if stopped { daemon.signal(SIGCONT) } }
            for i in 0..<count { Files.write(root + "/d\(i % 4)/n\(i).jpg", "n") }
            for i in 0..<50 { Files.remove(root + "/d0/old\(i).jpg") }
            for i in 50..<100 { Files.rename(root + "/d0/old\(i).jpg", root + "/d\(1 + i % 3)/renamed\(i).jpg") }
            Files.mkdir(root + "/late")
            Files.write(root + "/late/l.jpg")
            daemon.signal(SIGCONT)
            stopped = false

            let synced = try c.result(["cmd": "sync", "timeout_ms": 90_000], timeout: 120)
            #expect(synced["synced"] as? Bool == true)
            let find = try run("/usr/bin/find", [root, "-type", "f", "-name", "*.jpg", "-printf", "%P\\n"])
            let onDisk = Set(find.output.split(separator: "\n").map(String.init))
            #expect(onDisk.count == count + 50 + 1)
            let indexed = try c.idsByPath()
            let missing = onDisk.subtracting(indexed.keys)
            let extra = Set(indexed.keys).subtracting(onDisk)
            #expect(missing.isEmpty && extra.isEmpty, "missing \(missing.prefix(5)), extra \(extra.prefix(5))")
            // Renamed while events were lost: found again by inode, same id.
            for i in 50..<100 { #expect(indexed["d\(1 + i % 3)/renamed\(i).jpg"] == before["d0/old\(i).jpg"]) }

            let status = try c.status()
            #expect((status["overflows"] as? Int ?? 0) >= 1)
            #expect((status["rescans"] as? Int ?? 0) >= 1)
            let pics = try c.rootStatus()
            #expect((pics["overflows"] as? Int ?? 0) >= 1)
            #expect((pics["rescans"] as? Int ?? 0) >= 1)
            #expect(pics["photos"] as? Int == onDisk.count)
            // Subscribers were told: an overflow, then a rescan of the root.
            var seen: [[String: Any]] = []
            let done = try watcher.waitForEvent(timeout: 30, seen: &seen) { $0["event"] as? String == "scan" && $0["state"] as? String == "done" }
            #expect(done?["count"] as? Int == onDisk.count)
            let kinds = seen.compactMap { $0["event"] as? String }.filter { ["overflow", "scan"].contains($0) }
            #expect(kinds.first == "overflow" && kinds.contains("scan"), "\(kinds)")
        }
    }
}
