// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch.RemoteShare {
    /// A JPEG whose EXIF says when it was taken (DateTimeOriginal, little-endian TIFF).
    static func jpeg(taken: String) -> Data {
        precondition(taken.utf8.count == 19)
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        // IFD0 (at 8) points at the EXIF IFD (at 26), whose one entry points at the text (at 44).
        var tiff: [UInt8] = Array("II".utf8) + u16(42) + u32(8)
        tiff += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)
        tiff += u16(1) + u16(0x9003) + u16(2) + u32(20) + u32(44) + u32(0)
        tiff += Array(taken.utf8) + [0]
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let length = app1.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + [0xFF, 0xD9])
    }

    /// A local root "pics" beside a share "nas" of `count` photos whose server stops
    /// answering just after the share's scan, while capture times are still being
    /// read: where the tests of "a hung share holds back nothing of another root"
    /// start. `end()` lets the server answer again and stops the daemon.
    struct HungShare {
        let daemon: Daemon
        let share: SSHShare
        let client: Client
        let capturePendingAtHang: Int

        func end() {
            share.resume()
            daemon.stop()
        }
    }

    static func hungShareBesideALocalRoot(count: Int = 1500) throws -> HungShare {
        try SSHShare.requireAvailable()
        let daemon = Daemon(roots: ["pics"])
        let share = try SSHShare(mountpoint: daemon.home.sub("nas"))
        do {
            // Enough photos that their capture times are still being read when the
            // share's scan ends and the share is hung.
            Files.mkdir(share.export + "/photos")
            for n in 0..<count {
                _ = FileManager.default.createFile(atPath: share.export + "/photos/s\(n).jpg",
                                                   contents: Self.jpeg(taken: "2023:08:01 12:00:00"))
            }
            configure(daemon, """
                { roots: [{ name: "pics", path: "\(daemon.root("pics"))" },
                          { name: "nas", path: "\(share.mountpoint)/photos", poll_interval_seconds: 1 }] }
                """)
            try daemon.start()
            let c = try daemon.client()
            try eventually(timeout: 60, "the share's scan to end") {
                let nas = try c.rootStatus("nas")
                return nas["scanning"] as? Bool == false && nas["photos"] as? Int == count
            }
            share.hang()
            let pending = try c.rootStatus("nas")["capture_pending"] as? Int ?? 0
            try #require(pending > 0, "every capture time of the share was read before it hung; give it more photos")
            return HungShare(daemon: daemon, share: share, client: c, capturePendingAtHang: pending)
        } catch {
            share.resume()
            daemon.stop()
            throw error
        }
    }

    /// Capture times are read on a thread per share: a share whose server hangs
    /// while its photos wait for theirs holds back only those; a local root's new
    /// photos get theirs at once, and the share's come once its server answers.
    @Test func aHungShareHoldsBackOnlyItsOwnCaptureTimes() throws {
        let hung = try Self.hungShareBesideALocalRoot()
        defer { hung.end() }
        let (daemon, share, c) = (hung.daemon, hung.share, hung.client)

        // New photos on the local root get their capture times while the share hangs.
        for n in 0..<5 {
            _ = FileManager.default.createFile(atPath: daemon.root("pics") + "/p\(n).jpg",
                                           contents: Self.jpeg(taken: "2024:05:17 10:20:3\(n)"))
        }
        let local = try c.result(["cmd": "sync", "root": "pics", "timeout_ms": 3000], timeout: 10)
        #expect(local["synced"] as? Bool == true, "\(local)")
        let started = Date()
        try daemon.explainingFailures {
            try eventually(timeout: 5, "the local photos' capture times while the share hangs") {
                try c.rootStatus("pics")["capture_pending"] as? Int == 0
            }
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < 2, "the local capture times took \(seconds) s")
        let taken = Dictionary(uniqueKeysWithValues: try c.photos(["root": "pics", "fields": ["path", "capture_time"]]).compactMap { p in
            (p["path"] as? String).map { ($0, p["capture_time"] as? String ?? "") }
        })
        #expect(taken == Dictionary(uniqueKeysWithValues: (0..<5).map { ("p\($0).jpg", "2024-05-17T10:20:3\($0)") }), "\(taken)")
        let printed = try daemon.ctl(["ls", "pics"])
        #expect(printed.stdout.contains("2024-05-17"), "curatorctl shows when they were taken: \(printed.stdout)")

        // The share's photos still wait: none was lost or marked unknown.
        let nas = try c.rootStatus("nas")
        #expect((nas["capture_pending"] as? Int ?? 0) > 0, "\(nas)")

        // Its server answers again: the rest of its capture times are read.
        share.resume()
        try daemon.explainingFailures {
            try eventually(timeout: 60, "the share's capture times after it answers again") {
                try c.rootStatus("nas")["capture_pending"] as? Int == 0
            }
        }
        let times = Set(try c.photos(["root": "nas", "fields": ["capture_time"]]).map { $0["capture_time"] as? String ?? "" })
        #expect(times == ["2023-08-01T12:00:00"], "\(times)")
    }
}
