// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// Connections held open by another uid, as a hostile user would: one `socat`
/// each, run by `setpriv` as that uid, reading what the daemon says into a file of
/// its own and sending nothing. Stopped (killed) when the value goes away.
final class HeldConnections {
    let uid: UInt32
    private let scratch = TestDirectory("held")
    private var processes: [Process] = []
    private var outputs: [String] = []

    static var available: Bool {
        getuid() == 0 && Tool.exists("/usr/bin/setpriv") && Tool.exists("/usr/bin/socat")
    }

    init(uid: UInt32) { self.uid = uid }

    deinit { stop() }

    /// Opens `count` more connections to `socket`.
    func open(_ count: Int, to socket: String) throws {
        for _ in 0..<count {
            let output = scratch.sub("out-\(outputs.count)")
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/socat", "-u", "UNIX-CONNECT:\(socket)", "-"]
            p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            p.standardError = p.standardOutput
            p.standardInput = FileHandle.nullDevice
            try p.run()
            processes.append(p)
            outputs.append(output)
        }
    }

    /// What the daemon said on each connection so far (empty while it says nothing).
    var said: [String] { outputs.map { Files.read($0) ?? "" } }

    /// Connections the daemon refused with `code`.
    func refused(_ code: String) -> Int { said.filter { $0.contains("\"\(code)\"") }.count }

    func stop() {
        for p in processes where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        for p in processes { p.waitUntilExit() }
        processes.removeAll()
    }
}

/// One request as another uid, on a connection of its own: the response line.
func requestAsUser(_ uid: UInt32, socket: String, _ request: String) throws -> String {
    let out = try Tool.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/socat", "-",
                                                "UNIX-CONNECT:\(socket)"], input: request + "\n")
    return out.stdout
}
