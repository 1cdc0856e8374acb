// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A share mounted from "another host": an `sshd` of the test's own on 127.0.0.1
/// (its own config, host key and user key, all under a temporary folder) serving
/// `export`, mounted with `sshfs` at `mountpoint`. It stands in for NFS and SMB,
/// which these kernels lack: a FUSE file system whose changes made on the server
/// give no inotify event on the client, whose inode numbers are the client's own,
/// and which hangs when the server stops answering. Everything is undone when the
/// value goes away (the server resumed first, so that nothing stays stuck).
final class SSHShare {
    let home: TestDirectory
    /// The server's side of the share.
    let export: String
    /// Where the share is mounted.
    let mountpoint: String
    private(set) var port: Int32 = 0
    private var sshd: Spawned?
    private var sshfs: Spawned?
    /// Other mounts of the export (`mountAlso`), undone with the share.
    private var others: [(point: String, process: Spawned)] = []
    private var stopped: [Int32] = []

    /// Cancels the test only where FUSE or a loopback sshd cannot work on this machine;
    /// missing packages are a failure (scripts/install-deps.sh installs them).
    static func requireAvailable() throws {
        guard geteuid() == 0 else { try Test.cancel("sshfs shares need root (mounting FUSE, running sshd)") }
        let fd = open("/dev/fuse", O_RDWR)
        guard fd >= 0 else {
            try Test.cancel("FUSE cannot be used here: open /dev/fuse: \(String(cString: strerror(errno)))")
        }
        close(fd)
        for tool in ["/usr/sbin/sshd", "/usr/bin/sshfs", "/usr/bin/ssh-keygen", "/usr/bin/fusermount"] where !Tool.exists(tool) {
            throw HarnessError("\(tool) is missing: run scripts/install-deps.sh (openssh-server, sshfs)")
        }
    }

    /// Starts the server and mounts its `export` folder at `mountpoint` (made if missing).
    init(mountpoint: String, cacheListings: Bool = false) throws {
        home = TestDirectory("sshfs")
        export = home.mkdir("export")
        self.mountpoint = mountpoint
        try FileManager.default.createDirectory(atPath: mountpoint, withIntermediateDirectories: true)
        try makeKeys()
        try startServer()
        try mount(cacheListings: cacheListings)
    }

    deinit {
        resume()
        unmount()
        for other in others {
            if Self.isMounted(other.point) { _ = try? run("/usr/bin/fusermount", ["-u", "-z", other.point]) }
            other.process.end()
        }
        for pid in sessionProcesses { kill(pid, SIGKILL) }
        sshd?.end()
    }

    private func makeKeys() throws {
        for key in ["host_key", "user_key"] {
            let out = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "curatord-test", "-f", home.sub(key)])
            guard out.status == 0 else { throw HarnessError("ssh-keygen: \(out.stderr)") }
        }
        try FileManager.default.copyItem(atPath: home.sub("user_key.pub"), toPath: home.sub("authorized_keys"))
    }

    private func startServer() throws {
        // sshd's privilege separation needs this folder (Debian's service makes it at boot).
        if !Files.exists("/run/sshd") { try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
        for _ in 0..<5 {
            port = Int32.random(in: 20_000...60_000)
            Files.write(home.sub("sshd_config"), """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(home.sub("host_key"))
                AuthorizedKeysFile \(home.sub("authorized_keys"))
                PidFile none
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                UsePAM no
                StrictModes no
                PermitRootLogin prohibit-password
                Subsystem sftp internal-sftp

                """)
            let log = home.sub("sshd.log")
            // -D: stays in the foreground, a child of the test; -e: its log to stderr (a file).
            let p = try Spawned("/usr/sbin/sshd", ["-D", "-e", "-f", home.sub("sshd_config")], log: log)
            let listening = (try? eventually(timeout: 5, "sshd to listen on 127.0.0.1:\(port)") {
                if !p.isRunning { return true }
                return (Files.read(log) ?? "").contains("listening on 127.0.0.1 port \(port)")
            }) != nil
            if p.isRunning && listening {
                sshd = p
                return
            }
            p.end()
            // The port was taken: another one. Any other failure says why in the log.
            if !(Files.read(log) ?? "").contains("Address already in use") {
                try Test.cancel("a loopback sshd cannot run here: \(Files.read(log) ?? "")")
            }
        }
        throw HarnessError("no free port for sshd after 5 tries")
    }

    /// Mounts the share again (after `unmount`), from the same server.
    func remount() throws { sshfs = try mount(at: mountpoint, cacheListings: false) }

    /// Mounts the export at `point` too: a FUSE mount of its own, which takes the
    /// device number the kernel would otherwise give the share's next mount (as any
    /// mount made meanwhile does on a laptop). Unmounted with the share.
    func mountAlso(at point: String) throws {
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        others.append((point, try mount(at: point, cacheListings: false)))
    }

    private func mount(cacheListings: Bool) throws { sshfs = try mount(at: mountpoint, cacheListings: cacheListings) }

    private func mount(at mountpoint: String, cacheListings: Bool) throws -> Spawned {
        let log = home.sub("sshfs.log")
        var options = ["IdentityFile=\(home.sub("user_key"))", "StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null",
                       "BatchMode=yes", "LogLevel=ERROR"]
        // sshfs keeps listings and attributes about 20 s: a test of what the server
        // changes wants each look to reach the server.
        if !cacheListings { options.append("cache=no") }
        let p = try Spawned("/usr/bin/sshfs", ["-f", "-p", String(port), "-o", options.joined(separator: ","),
                                               "root@127.0.0.1:\(export)", mountpoint], log: log)
        try eventually(timeout: 10, "sshfs to mount \(export) at \(mountpoint)") {
            if !p.isRunning {
                let text = Files.read(log) ?? ""
                if text.contains("fuse: device not found") || text.contains("/dev/fuse") {
                    try Test.cancel("FUSE cannot mount here: \(text)")
                }
                throw HarnessError("sshfs exited: \(text)")
            }
            return Self.isMounted(mountpoint)
        }
        return p
    }

    static func isMounted(_ path: String) -> Bool {
        Files.mountPoints().contains(path)
    }

    /// The server's processes serving the share (the session sshd and its sftp), found below the listener.
    private var sessionProcesses: [Int32] {
        // An ended server's pid may be another process's by now: it has no sessions.
        guard let sshd, sshd.isRunning else { return [] }
        let listener = sshd.pid
        var parents: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = Files.read("/proc/\(entry)/stat"),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let ppid = Int32(fields[1]) { parents[pid] = ppid }
        }
        var found: [Int32] = []
        var frontier = [listener]
        while let next = frontier.popLast() {
            for (pid, ppid) in parents where ppid == next {
                found.append(pid)
                frontier.append(pid)
            }
        }
        return found
    }

    /// The server stops answering (SIGSTOP), as a NAS that hangs does: every call on the
    /// mount waits, uninterruptibly, until `resume`.
    func hang() {
        stopped = sessionProcesses
        precondition(!stopped.isEmpty, "no sshd session serves the share")
        for pid in stopped { kill(pid, SIGSTOP) }
    }

    func resume() {
        for pid in stopped { kill(pid, SIGCONT) }
        stopped = []
    }

    /// The server dies: calls on the mount fail (ENOTCONN) from now on.
    func killServer() {
        resume()
        for pid in sessionProcesses { kill(pid, SIGKILL) }
        sshd?.end()
    }

    /// Unmounts (lazily: a daemon may still hold the folder) and ends sshfs.
    func unmount() {
        if Self.isMounted(mountpoint) { _ = try? run("/usr/bin/fusermount", ["-u", "-z", mountpoint]) }
        sshfs?.end()
    }

    /// The inode number the server gives a file of the share (sshfs shows its own).
    func serverInode(_ relative: String) -> UInt64? {
        var st = stat()
        return lstat(export + "/" + relative, &st) == 0 ? UInt64(st.st_ino) : nil
    }
}

/// A program started with posix_spawn and reaped by pid. Not Foundation's `Process`:
/// it takes a program that closes the descriptors it inherited (sshd, sshfs) for one
/// that exited, and then blocks in waitpid, so no other `Process` is ever reaped.
final class Spawned {
    let pid: pid_t
    private var reaped = false

    init(_ executable: String, _ arguments: [String], log: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard rc == 0 else { throw HarnessError("posix_spawn \(executable): \(String(cString: strerror(rc)))") }
        pid = child
    }

    var isRunning: Bool {
        if reaped { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    /// SIGTERM, then SIGKILL after 5 s; reaped either way.
    func end() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date(timeIntervalSinceNow: 5)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning { kill(pid, SIGKILL) }
        var status: Int32 = 0
        if !reaped { _ = waitpid(pid, &status, 0) }
        reaped = true
    }

    deinit { end() }
}
