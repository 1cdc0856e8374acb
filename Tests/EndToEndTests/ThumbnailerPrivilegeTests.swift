// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 5: the thumbnail worker decodes untrusted files without the
/// daemon's privileges. Its `/proc` status, thread by thread, while it runs under
/// a daemon started as root (every capability) and under one started as the
/// system unit starts it (a service user with CAP_CHOWN, CAP_DAC_OVERRIDE and
/// CAP_FOWNER as ambient capabilities, capset refused by its system call filter):
/// no capability effective, permitted or ambient (nor inheritable nor bounding
/// under root), no new privileges, a seccomp filter; and it still makes
/// thumbnails.
@Suite(.serialized) struct ThumbnailerPrivilegeTests {
    /// The fields of /proc/<pid>/task/<tid>/status for every thread of `pid`.
    static func threads(of pid: Int32) -> [[String: String]] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { tid in
            guard let text = Files.read("/proc/\(pid)/task/\(tid)/status") else { return nil }
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
            return fields
        }
    }

    /// The worker the daemon `parent` started (its child named curatord-thumbnailer).
    static func worker(of parent: Int32) -> Int32? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let status = threads(of: pid).first else { continue }
            if status["PPid"] == String(parent), status["Name"]?.hasPrefix("curatord-thumb") == true { return pid }
        }
        return nil
    }

    static func runsUnprivileged(_ d: Daemon, fullyDropped: Bool) throws {
        let root = d.root()
        try ThumbnailTests.sample(["marker", root + "/one.jpg"])
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        try ThumbnailTests.waitForBacklog(client, ready: 1, failed: 0)
        let pid = try #require(Self.worker(of: d.pid), "the daemon's worker is running")
        let threads = Self.threads(of: pid)
        #expect(!threads.isEmpty)
        for status in threads {
            let name = status["Name"] ?? "?"
            for field in ["CapEff", "CapPrm", "CapAmb"] {
                #expect(status[field] == "0000000000000000", "\(name): \(field) \(status[field] ?? "none")")
            }
            // Under the unit, capset is refused: the inheritable set stays, and gives nothing.
            if fullyDropped {
                for field in ["CapInh", "CapBnd"] {
                    #expect(status[field] == "0000000000000000", "\(name): \(field) \(status[field] ?? "none")")
                }
            }
            #expect(status["NoNewPrivs"] == "1", "\(name)")
            #expect(status["Seccomp"] == "2", "\(name): Seccomp \(status["Seccomp"] ?? "none")")
        }
        // The daemon keeps what it was given; the worker still works without it.
        #expect(Self.threads(of: d.pid).first?["CapEff"] != "0000000000000000")
        try ThumbnailTests.sample(["marker", root + "/two.jpg", "--width", "300", "--height", "200"])
        _ = try client.result(["cmd": "sync"])
        try ThumbnailTests.waitForBacklog(client, ready: 2, failed: 0)
    }

    @Test func aRootDaemonsWorkerHasNoCapabilities() throws {
        guard getuid() == 0 else {
            print("skipped: needs root")
            return
        }
        let d = Daemon()
        try Self.runsUnprivileged(d, fullyDropped: true)
    }

    /// What the unit's `SystemCallFilter=~@privileged` does to capset (and what
    /// `@system-service` leaves out, seccomp): refused with EPERM, with
    /// `NoNewPrivileges=yes`. It runs the rest of its arguments.
    static let unitFilter = """
        import ctypes, os, platform, struct, sys
        libc = ctypes.CDLL(None, use_errno=True)
        refused = {"x86_64": [126, 317], "aarch64": [91, 277]}[platform.machine()]
        program = [struct.pack("HBBI", 0x20, 0, 0, 0)]
        for nr in refused:
            program += [struct.pack("HBBI", 0x15, 0, 1, nr), struct.pack("HBBI", 0x06, 0, 0, 0x00050000 | 1)]
        program.append(struct.pack("HBBI", 0x06, 0, 0, 0x7FFF0000))
        code = ctypes.create_string_buffer(b"".join(program))
        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
        fprog = Program(len(program), ctypes.cast(code, ctypes.c_void_p))
        if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:
            sys.exit("seccomp: %d" % ctypes.get_errno())
        os.execv(sys.argv[1], sys.argv[1:])
        """

    @Test func theSystemUnitsWorkerHasNoCapabilities() throws {
        guard SystemUsers.available else {
            print("skipped: needs root, useradd and setpriv")
            return
        }
        let users = SystemUsers()
        defer { users.remove() }
        let service = try users.user("svc")
        let caps = "+chown,+dac_override,+fowner"
        let d = Daemon()
        d.wrapper = ["/usr/bin/setpriv", "--reuid=\(service.uid)", "--regid=\(service.gid)", "--clear-groups",
                     "--inh-caps=\(caps)", "--ambient-caps=\(caps)", "/usr/bin/python3", "-c", Self.unitFilter]
        try Self.runsUnprivileged(d, fullyDropped: false)
    }
}
