// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// The real `curatord` binary, started on private temporary folders, socket,
/// state, trash and config. It logs to a file (never an unread pipe), is waited
/// for by asking it, and is always stopped.
final class Daemon {
    let home: TestDirectory
    let socket: String
    let stateDir: String
    let dataHome: String
    let logPath: String
    var roots: [String: String]
    private(set) var process: Process?
    var extraEnvironment: [String: String] = [:]
    /// Variables the daemon must not get (after `extraEnvironment`): without
    /// XDG_RUNTIME_DIR, a root daemon is the system service.
    var removedEnvironment: Set<String> = []
    var configPath: String?
    /// How the daemon is started: by hand, or by `systemd-socket-activate`
    /// listening on `socket` and handing it over (the daemon's own --socket then
    /// names `configuredSocket`, which must stay unused).
    var launch = Launch.direct
    /// Set to receive what the daemon tells systemd.
    var notify: NotifyListener?
    /// WATCHDOG_USEC for the daemon (as systemd sets it with WatchdogSec=).
    var watchdogUsec: UInt64?
    /// How the last `stop` ended: true when the process exited (not killed by a signal).
    private(set) var exitedNormally = false

    enum Launch { case direct, socketActivated }
    /// A command that runs curatord (given as its last arguments), for a direct launch:
    /// for example `unshare` to start it in a namespace of its own.
    var wrapper: [String] = []
    /// --log-level given to the daemon; nil leaves the configuration's.
    var commandLineLogLevel: String? = "debug"

    var configuredSocket: String { launch == .direct ? socket : home.sub("configured.sock") }

    static var binDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["CURATORD_BIN_DIR"] { return dir }
        // Tests/EndToEndTests/Support/Daemon.swift -> package root
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug").path
    }

    static var curatord: String { binDirectory + "/curatord" }
    static var curatorctl: String { binDirectory + "/curatorctl" }

    /// Makes the folders; `roots` are names of root folders created under the home.
    init(roots: [String] = ["pics"]) {
        home = TestDirectory("e2e")
        socket = home.sub("curatord.sock")
        stateDir = home.mkdir("state")
        dataHome = home.mkdir("data")
        logPath = home.sub("curatord.log")
        var map: [String: String] = [:]
        for name in roots { map[name] = home.mkdir(name) }
        self.roots = map
    }

    deinit { stop() }

    func root(_ name: String = "pics") -> String { roots[name] ?? home.sub(name) }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = dataHome
        env["XDG_STATE_HOME"] = home.sub("xdg-state")
        env["XDG_CONFIG_HOME"] = home.sub("xdg-config")
        // Thumbnails go here, never to the real ~/.cache.
        env["XDG_CACHE_HOME"] = home.sub("xdg-cache")
        env["XDG_RUNTIME_DIR"] = home.path
        env["HOME"] = home.path
        env["CURATORD_SOCKET"] = socket
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "WATCHDOG_USEC")
        env.removeValue(forKey: "WATCHDOG_PID")
        env.removeValue(forKey: "JOURNAL_STREAM")
        env.removeValue(forKey: "INVOCATION_ID")
        env.removeValue(forKey: "CONFIGURATION_DIRECTORY")
        env.removeValue(forKey: "STATE_DIRECTORY")
        env.removeValue(forKey: "CACHE_DIRECTORY")
        if let notify { env["NOTIFY_SOCKET"] = notify.path }
        if let watchdogUsec { env["WATCHDOG_USEC"] = String(watchdogUsec) }
        for (k, v) in extraEnvironment { env[k] = v }
        for k in removedEnvironment { env.removeValue(forKey: k) }
        return env
    }

    /// What the process is started as: curatord itself, or systemd-socket-activate
    /// with the environment forwarded by -E (it passes a clean one otherwise).
    var command: (executable: String, arguments: [String]) {
        switch launch {
        case .direct:
            if let first = wrapper.first { return (first, Array(wrapper.dropFirst()) + [Self.curatord] + arguments) }
            return (Self.curatord, arguments)
        case .socketActivated:
            let env = environment
            var forwarded = ["PATH", "HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR",
                             "NOTIFY_SOCKET", "WATCHDOG_USEC"]
            forwarded += extraEnvironment.keys.sorted()
            var args = ["--listen=" + socket]
            for key in forwarded { if let value = env[key] { args.append("--setenv=\(key)=\(value)") } }
            return ("/usr/bin/systemd-socket-activate", args + [Self.curatord] + arguments)
        }
    }

    var arguments: [String] {
        var common = ["--socket", configuredSocket, "--state-dir", stateDir]
        if let level = commandLineLogLevel { common += ["--log-level", level] }
        if let configPath { return ["--config", configPath] + common }
        var args: [String] = []
        for name in roots.keys.sorted() { args += ["--root", roots[name] ?? home.sub(name)] }
        return args + common
    }

    /// Starts the daemon and waits until it answers `hello`.
    func start(waitForScan: Bool = true) throws {
        precondition(process == nil, "already started")
        guard FileManager.default.isExecutableFile(atPath: Self.curatord) else {
            throw HarnessError("no curatord binary at \(Self.curatord): run `swift build` first")
        }
        let p = Process()
        let (executable, argv) = command
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = argv
        p.environment = environment
        // Kept when it exists: a test may have named its inode (JOURNAL_STREAM), and restarts append.
        if !Files.exists(logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        p.standardOutput = log
        p.standardError = log
        p.standardInput = FileHandle.nullDevice
        try p.run()
        process = p
        try eventually(timeout: 15, "curatord to answer on \(socket)") {
            if !p.isRunning { throw HarnessError("curatord exited with \(p.terminationStatus): \(logText)") }
            guard let client = try? Client(socket) else { return false }
            return (try? client.request(["cmd": "hello"])) != nil
        }
        if waitForScan { try waitForScanToFinish() }
    }

    func waitForScanToFinish(timeout: Double = 30) throws {
        let client = try Client(socket)
        try eventually(timeout: timeout, "the scan to finish") {
            let status = try client.result(["cmd": "status"])
            // Right after start the watcher may not have begun: "not scanning" counts only
            // once every online root has finished a scan (has a last_scan_ms).
            let roots = status["roots"] as? [[String: Any]] ?? []
            let scanned = roots.allSatisfy { $0["online"] as? Bool == false || $0["last_scan_ms"] != nil }
            return (status["scanning"] as? Bool) == false && scanned
        }
    }

    var pid: Int32 { process?.processIdentifier ?? 0 }

    /// SIGTERM and wait (SIGKILL after a bound). Returns the exit status.
    @discardableResult
    func stop(timeout: Double = 10) -> Int32? {
        guard let p = process else { return nil }
        process = nil
        let wasDead = !p.isRunning
        if !wasDead {
            kill(p.processIdentifier, SIGTERM)
            let deadline = Date(timeIntervalSinceNow: timeout)
            while p.isRunning && Date() < deadline { usleep(10_000) }
            if p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
                exitedNormally = false
                return nil
            }
        }
        p.waitUntilExit()
        exitedNormally = p.terminationReason == .exit
        if wasDead && !exitedNormally { reportUnexpectedDeath(p) }
        return p.terminationStatus
    }

    /// A daemon that died of a signal nobody sent it (a trap, or a stray kill) before
    /// the test stopped it: what the test sees is a lost connection, so the cause, the
    /// end of the daemon's log, is printed where CI keeps it.
    private func reportUnexpectedDeath(_ p: Process) {
        let tail = logText.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n")
        print("curatord pid \(p.processIdentifier) had died of signal \(p.terminationStatus) before the test stopped it; "
              + "the end of its log (\(logPath)):\n\(tail)")
    }

    /// A real crash: SIGKILL, no chance to clean up.
    func kill9() {
        guard let p = process else { return }
        process = nil
        // Only a live one: the pid of a reaped daemon may be another process's by now.
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }

    func signal(_ sig: Int32) { if let p = process, p.isRunning { kill(p.processIdentifier, sig) } }

    /// Waits for a daemon that is to die on its own (a failpoint), then forgets it so
    /// that it can be started again. Returns the signal that killed it (0 if it exited).
    @discardableResult
    func waitForExit(timeout: Double = 15) throws -> Int32 {
        guard let p = process else { throw HarnessError("no daemon to wait for") }
        try eventually(timeout: timeout, "curatord \(p.processIdentifier) to die") { !p.isRunning }
        p.waitUntilExit()
        process = nil
        return p.terminationReason == .uncaughtSignal ? p.terminationStatus : 0
    }

    var logText: String { Files.read(logPath) ?? "" }

    func client() throws -> Client { try Client(socket) }

    /// Lets a client running as another uid (`ctl(asUID:)`) reach the socket, which
    /// the daemon creates 0600 inside a private directory.
    func letOtherUsersConnect() {
        chmod(home.path, 0o755)
        chmod(socket, 0o666)
    }

    /// Runs curatorctl with this daemon's socket (from `directory` when given); returns
    /// exit code and output.
    func ctl(_ args: [String], asUID uid: UInt32? = nil, input: String? = nil,
             in directory: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var argv = args
        if let uid {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            argv = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Self.curatorctl, "--socket", socket] + args
        } else {
            p.executableURL = URL(fileURLWithPath: Self.curatorctl)
            argv = ["--socket", socket] + args
        }
        p.arguments = argv
        p.environment = environment
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let inPipe = Pipe()
        p.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try p.run()
        if let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try? inPipe.fileHandleForWriting.close()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
