// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// A person at a terminal: a private tmux server whose one pane runs a shell script
/// that records the terminal's settings, runs `curatorctl cull`, records its exit
/// status and the settings again. Keys go in with `send-keys`; the screen comes back
/// with `capture-pane` (text: the grid draws with Unicode symbols inside tmux).
final class TmuxTerminal {
    let daemon: Daemon
    let directory: TestDirectory
    let socket: String

    static var available: Bool { Tool.exists("/usr/bin/tmux") }

    /// `hiding`: a folder cull is not to see, as on another host: it runs in a mount
    /// namespace of its own where an empty tmpfs covers that folder (the daemon sees
    /// it as it is).
    init(_ daemon: Daemon, columns: Int = 80, rows: Int = 24, arguments: [String] = [], hiding: String? = nil) throws {
        self.daemon = daemon
        directory = TestDirectory("tmux")
        socket = directory.sub("tmux.sock")
        var command = [Daemon.curatorctl, "--socket", daemon.socket, "cull"] + arguments
        if let hiding {
            command = ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                       #"mount -t tmpfs cull-hidden "$0" && exec "$@""#, hiding] + command
        }
        let quoted = command.map(Self.quote).joined(separator: " ")
        let script = """
            stty -a > \(Self.quote(directory.sub("stty-before")))
            echo BEFORE-CULL
            \(quoted)
            echo $? > \(Self.quote(directory.sub("status")))
            stty -a > \(Self.quote(directory.sub("stty-after")))
            echo AFTER-CULL
            exec sleep 600
            """
        try script.write(toFile: directory.sub("run.sh"), atomically: true, encoding: .utf8)
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "/bin/sh " + Self.quote(directory.sub("run.sh"))])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let out = directory.sub("tmux-out")
        let status = try Self.spawn(["/usr/bin/tmux", "-S", socket] + arguments, output: out)
        let text = Files.read(out) ?? ""
        guard status == 0 else { throw HarnessError("tmux \(arguments) exited with \(status): \(text)") }
        return text
    }

    /// posix_spawn and waitpid, output to a file. Foundation's Process left the tmux
    /// client, which starts the server, unreaped and its waiter blocked forever.
    static func spawn(_ argv: [String], output: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A clean signal mask and default dispositions: the server tmux starts needs SIGCHLD.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TMUX")
        environment["TERM"] = "xterm-256color"
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let args = argv.map { strdup($0) } + [nil]
        defer { for p in envp + args { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, &attributes, args, envp)
        guard rc == 0 else { throw HarnessError("posix_spawn \(argv[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw HarnessError("waitpid: \(String(cString: strerror(errno)))") }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Keys as tmux names them: "v", "Space", "Enter", "Escape", "C-c", "PageDown", or literal text.
    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", "0"] + keys) }

    func type(_ text: String) throws { try tmux(["send-keys", "-t", "0", "-l", text]) }

    var screen: String { (try? tmux(["capture-pane", "-p", "-t", "0"])) ?? "" }

    var lines: [String] { screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Waits until the screen shows `text`; returns the screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 10) throws -> String {
        var last = ""
        do {
            try eventually(timeout: timeout, "the screen to show \(text)") {
                last = screen
                return last.contains(text)
            }
        } catch {
            throw HarnessError("the screen never showed \(text):\n\(last)")
        }
        return last
    }

    func waitForAbsence(_ text: String, timeout: Double = 10) throws {
        var last = ""
        do {
            try eventually(timeout: timeout, "the screen to stop showing \(text)") {
                last = screen
                return !last.contains(text)
            }
        } catch {
            throw HarnessError("the screen kept showing \(text):\n\(last)")
        }
    }

    /// A tmux format of the pane: `alternate_on`, `cursor_flag`, `pane_pid`, ...
    func pane(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "0", "#{\(format)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// curatorctl's pid: the shell's child.
    func curatorctlPID() throws -> Int32 {
        let shell = try pane("pane_pid")
        var pid: Int32 = 0
        try eventually(timeout: 10, "curatorctl to run") {
            let out = try Tool.run("/usr/bin/pgrep", ["-P", shell, "-x", "curatorctl"])
            pid = Int32(out.stdout.split(separator: "\n").first ?? "") ?? 0
            return pid > 0
        }
        return pid
    }

    /// The exit status cull left, once it has ended.
    func exitStatus(timeout: Double = 10) throws -> Int32 {
        let path = directory.sub("status")
        try eventually(timeout: timeout, "curatorctl cull to end") { Files.read(directory.sub("stty-after"))?.isEmpty == false }
        return Int32((Files.read(path) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The terminal as cull found it: the same settings, the main screen with what was
    /// on it before, the cursor shown.
    func expectRestored() throws -> [String] {
        var problems: [String] = []
        // The window's size is the window's, not a setting cull could leave behind.
        func settings(_ name: String) -> String {
            (Files.read(directory.sub(name)) ?? name).replacingOccurrences(of: #"rows \d+; columns \d+;"#, with: "",
                                                                        options: .regularExpression)
        }
        let before = settings("stty-before")
        let after = settings("stty-after")
        if before != after { problems.append("stty -a before:\n\(before)\nafter:\n\(after)") }
        if try pane("alternate_on") != "0" { problems.append("still on the alternate screen") }
        if try pane("cursor_flag") != "1" { problems.append("the cursor is hidden") }
        if try pane("wrap_flag") != "1" { problems.append("line wrapping is off") }
        let text = screen
        if !text.contains("BEFORE-CULL") || !text.contains("AFTER-CULL") { problems.append("the main screen is not back:\n\(text)") }
        return problems
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
