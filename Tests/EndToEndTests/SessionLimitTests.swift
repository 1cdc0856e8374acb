// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// What one user's sessions may hold (issue 11 item 3): at most
/// `max_sessions_per_user` sessions, each selection at most `max_selection` photos,
/// and all of a user's selections together at most `max_selected_per_user`.
@Suite(.serialized)
struct SessionLimitTests {
    /// A root of `count` photos in folders of 1 000, on tmpfs when there is one: on
    /// a disk shared with other busy tests, making and removing 20 000 files took
    /// over a minute, none of it what the test is about.
    final class ManyPhotos {
        let root: String
        let count: Int

        init(_ count: Int) throws {
            self.count = count
            let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : "/tmp"
            var template = Array("\(base)/curatord-many-XXXXXX".utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw HarnessError("mkdtemp in \(base): errno \(errno)")
            }
            root = String(cString: made)
            for folder in 0..<(count + 999) / 1000 {
                guard mkdir(root + String(format: "/f%03d", folder), 0o755) == 0 else { throw HarnessError("mkdir: errno \(errno)") }
                for i in (folder * 1000)..<min(count, (folder + 1) * 1000) {
                    let fd = open(path(i), O_WRONLY | O_CREAT | O_EXCL, 0o644)
                    guard fd >= 0, write(fd, "p", 1) == 1 else { throw HarnessError("cannot write photo \(i): errno \(errno)") }
                    close(fd)
                }
            }
        }

        func path(_ i: Int) -> String { root + String(format: "/f%03d/IMG_%06d.JPG", i / 1000, i) }

        deinit {
            for i in 0..<count { unlink(path(i)) }
            for folder in 0..<(count + 999) / 1000 { rmdir(root + String(format: "/f%03d", folder)) }
            rmdir(root)
        }
    }

    /// A daemon on `photos`, with the limits given in the configuration.
    static func daemon(_ photos: ManyPhotos, limits: String) throws -> Daemon {
        let d = Daemon()
        try d.useConfig("{ roots: [{ name: \"pics\", path: \"\(photos.root)\" }], \(limits) }")
        try d.start()
        return d
    }

    /// The daemon's resident memory, from /proc.
    static func residentKiB(_ d: Daemon) throws -> Int {
        guard let status = Files.read("/proc/\(d.pid)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw HarnessError("no VmRSS for pid \(d.pid)") }
        return kib
    }

    static func sessions(_ c: Client) throws -> Int { try c.result(["cmd": "status"])["sessions"] as? Int ?? -1 }

    /// The attack of the review, scaled down: one user makes hundreds of sessions,
    /// and 50 of them select every one of 20 000 photos. Unbounded, that is a
    /// million selected ids (some 60 MB); bounded, the daemon keeps at most the
    /// configured sessions and selected photos, refuses the rest with stable codes,
    /// and its memory stays flat.
    @Test func oneUsersSessionsCannotGrowTheDaemonWithoutBound() throws {
        let photos = 20_000
        let files = try ManyPhotos(photos)
        let d = try Self.daemon(files, limits: "max_sessions_per_user: 16, max_selection: 20000, max_selected_per_user: 40000")
        // Stopped before the photos go, or it would watch 20 000 of them leave.
        defer {
            d.stop()
            withExtendedLifetime(files) {}
        }
        let c = try d.client()
        // Warm up: one whole selection made and dropped, so that what follows
        // measures what is kept, not the allocator's first growth.
        _ = try c.result(["cmd": "mode", "mode": "select", "session": "warm"])
        #expect(try c.result(["cmd": "select", "all": true, "session": "warm"])["count"] as? Int == photos)
        _ = try c.result(["cmd": "mode", "mode": "view", "session": "warm"])
        let before = try Self.residentKiB(d)

        for i in 0..<300 {
            _ = try c.result(["cmd": "view", "session": "idle-\(i)", "root": "pics", "sort": i % 2 == 0 ? "size" : "mtime"])
        }
        #expect(try Self.sessions(c) <= 16)

        var selected = 0
        var refused: [String: Int] = [:]
        for i in 0..<50 {
            let session = "all-\(i)"
            _ = try c.result(["cmd": "mode", "mode": "select", "session": session])
            let answer = try c.request(["cmd": "select", "all": true, "session": session])
            if answer["ok"] as? Bool == true {
                selected += photos
            } else {
                let code = (answer["error"] as? [String: Any])?["code"] as? String ?? "?"
                refused[code, default: 0] += 1
            }
        }
        #expect(selected == 40_000, "the user's budget: two whole selections")
        #expect(refused == ["selection_full": 48])
        #expect(try Self.sessions(c) <= 16)
        let after = try Self.residentKiB(d)
        let grown = after - before
        print("resident memory: \(before) KiB before, \(after) KiB after (+\(grown) KiB)")
        #expect(grown < 16 * 1024, "the daemon grew by \(grown) KiB")
    }

    /// At `max_sessions_per_user`, a new session takes the place of the least
    /// recently used idle one, and says so; when every one holds a selection, it is
    /// refused with `too_many_sessions` and nothing is lost. The order of use
    /// survives a restart.
    @Test func aNewSessionTakesTheLeastRecentlyUsedIdleOnesPlaceOrIsRefused() throws {
        let d = try SessionTests.daemon { d in "{ roots: [{ path: \"\(d.root())\" }], max_sessions_per_user: 3 }" }
        #expect(try d.ctl(["--session", "keep", "select", "1"]).status == 0)
        #expect(try d.ctl(["--session", "idle", "view", "--sort", "size"]).status == 0)
        #expect(try d.ctl(["--session", "other", "view", "--sort", "mtime"]).status == 0)
        _ = try d.ctl(["--session", "idle", "ls"])  // used: "other" is now the least recently used
        #expect(d.stop() == 0)
        try d.start()
        let made = try d.ctl(["--session", "new", "select", "2"])
        #expect(made.status == 0)
        #expect(made.stdout.contains("Session other (nothing selected, least recently used) was forgotten to make room for new."),
                "\(made.stdout)")
        let c = try d.client()
        #expect(try Self.sessions(c) == 3)
        let raw = try c.result(["cmd": "view", "session": "newer", "sort": "size"])
        #expect(raw["evicted"] as? String == "idle")

        // Three sessions, each holding a selection: a fourth is refused, in words and by code.
        _ = try c.result(["cmd": "mode", "mode": "select", "session": "newer"])
        _ = try c.result(["cmd": "select", "positions": "3", "session": "newer"])
        let refused = try d.ctl(["--session", "fourth", "select", "4"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("You have 3 sessions (keep, new, newer)"), "\(refused.stderr)")
        #expect(try c.errorCode(["cmd": "mode", "mode": "select", "session": "fourth"]) == "too_many_sessions")
        #expect(try SessionTests.selection(c, session: "keep").map(\.path) == ["2024/05/IMG_0001.JPG"])
        #expect(try SessionTests.selection(c, session: "new").map(\.path) == ["2024/05/IMG_0002.JPG"])
        #expect(try SessionTests.selection(c, session: "newer").map(\.path) == ["2024/05/IMG_0003.JPG"])
        // Freeing one lets the next in.
        _ = try c.result(["cmd": "mode", "mode": "view", "session": "keep"])
        #expect(try c.result(["cmd": "mode", "mode": "select", "session": "fourth"])["evicted"] as? String == "keep")
    }
}
