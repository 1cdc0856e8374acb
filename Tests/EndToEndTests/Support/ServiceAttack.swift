// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// The setting of issue 54's attacks: curatord started as the system unit starts it
/// (a service user of its own, in the family group, with CAP_CHOWN, CAP_DAC_OVERRIDE
/// and CAP_FOWNER as ambient capabilities), a family group, and two of its members:
/// `alice`, the attacker, and `bob`, whose files she must not get. The root `pics`
/// is the family's to write (root:family 2775); its parent, the test's home, is not.
/// Race tests stop the daemon at the exact step (`CURATORD_FAILPOINT=<step>:<n>:stop`),
/// run the attacker's move as her, and let it go on.
final class ServiceAttack {
    typealias User = (name: String, uid: UInt32, gid: UInt32)

    let users = SystemUsers()
    let d: Daemon
    let service: User
    let alice: User
    let bob: User
    let familyGID: UInt32

    static var available: Bool { SystemUsers.available && Tool.exists("/bin/sh") }

    /// `config` is the text of the configuration, `\(root)` standing for the root's path.
    init(roots: [String] = ["pics"], config: ((Daemon) -> String)? = nil) throws {
        let family = try users.group("afam")
        service = try users.user("asvc", groups: [family])
        alice = try users.user("aalice", groups: [family])
        bob = try users.user("abob", groups: [family])
        guard let group = getgrnam(family) else { throw HarnessError("no group \(family)") }
        familyGID = group.pointee.gr_gid
        d = Daemon(roots: roots)
        if let config {
            let path = d.home.sub("curatord.json5")
            Files.write(path, config(d))
            d.configPath = path
        }
    }

    /// A folder of the family's (root:family 2775), as the README's setup makes them.
    func familyFolder(_ path: String) {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chown(path, 0, familyGID)
        chmod(path, 0o2775)
    }

    /// A file or folder of `user`'s with `mode`, made (a file holding `contents`) if missing.
    func owned(_ path: String, by user: User, mode: mode_t, contents: String? = nil) {
        if let contents { Files.write(path, contents) } else { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        chown(path, user.uid, user.gid)
        chmod(path, mode)
    }

    /// Starts the daemon as the service user with the unit's capabilities. The
    /// home (state, socket, config) becomes the service's; the roots keep their owners.
    func start(failpoint: String? = nil) throws {
        for dir in [d.home.path, d.stateDir, d.dataHome] {
            chown(dir, service.uid, service.gid)
        }
        chmod(d.home.path, 0o755)
        if let config = d.configPath { chown(config, service.uid, service.gid) }
        d.wrapper = ["/usr/bin/setpriv", "--reuid=\(service.uid)", "--regid=\(service.gid)", "--init-groups",
                     "--inh-caps=+chown,+dac_override,+fowner", "--ambient-caps=+chown,+dac_override,+fowner"]
        if let failpoint { d.extraEnvironment["CURATORD_FAILPOINT"] = failpoint }
        try d.start()
        d.letOtherUsersConnect()
    }

    /// Runs a shell command as `user` (with the groups the group database gives her).
    @discardableResult
    func run(_ script: String, as user: User) throws -> (status: Int32, stdout: String, stderr: String) {
        let out = try Tool.run("/usr/bin/setpriv", ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "/bin/sh", "-c", script])
        return (out.status, out.stdout, out.stderr)
    }

    /// curatorctl as `user`, started in the background: the daemon may stop in the middle of its request.
    func ctlInBackground(_ args: [String], as user: User) throws -> BackgroundCommand {
        try BackgroundCommand(["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", Daemon.curatorctl,
                               "--socket", d.socket] + args, environment: d.environment, output: d.home.sub("ctl-\(UInt32.random(in: 0...UInt32.max)).out"))
    }

    private var pid: pid_t? { d.process.map { $0.processIdentifier } }

    /// Waits until the daemon stopped itself at its failpoint (state T in /proc/PID/stat).
    func waitUntilStopped(timeout: Double = 30) throws {
        guard let pid else { throw HarnessError("the daemon is not running") }
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let stat = Files.read("/proc/\(pid)/stat") ?? ""
            // "pid (comm) S ...": the state follows the last ')'.
            if let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].hasPrefix(" T") { return }
            usleep(10_000)
        }
        throw HarnessError("the daemon did not stop at its failpoint within \(timeout) s; log:\n\(Files.read(d.logPath) ?? "")")
    }

    func resume() {
        if let pid { kill(pid, SIGCONT) }
    }

    /// The owner and mode of `path` (not followed).
    static func owner(_ path: String) -> (uid: UInt32, gid: UInt32, mode: mode_t)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_uid, st.st_gid, st.st_mode & 0o7777)
    }

    func stop() {
        resume()
        d.stop()
        users.remove()
    }
}

/// A command run in the background, its output to a file, waited for with a bound.
final class BackgroundCommand {
    private let process = Process()
    private let output: String

    init(_ argv: [String], environment: [String: String], output: String) throws {
        self.output = output
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try handle.close()
    }

    /// Its exit status and everything it printed; SIGKILLed after `timeout`.
    func finish(timeout: Double = 30) -> (status: Int32, output: String) {
        let end = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < end { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return (process.terminationStatus, Files.read(output) ?? "")
    }

    deinit { _ = finish(timeout: 0) }
}
