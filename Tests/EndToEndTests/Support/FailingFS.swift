// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Tests/Tools/failing-fs.py mounted over a folder: a real file system (FUSE) whose
/// lookups of chosen paths fail with EIO or hang for a while, as a failing disk or a
/// network share does. Unmounted when the value goes away.
final class FailingFS {
    let mountpoint: String
    let backing: String
    /// The list of paths that fail (see the script).
    let rules: String
    private let process = Process()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tools/failing-fs.py").path

    /// Cancels the test where FUSE cannot be used here.
    static func requireAvailable() throws {
        guard geteuid() == 0, Files.exists("/dev/fuse"), Tool.exists("/usr/bin/fusermount"),
              (try? run("/usr/bin/python3", ["-c", "import fusepy"]))?.status == 0
        else {
            try Test.cancel("needs root, /dev/fuse, fusermount and python3-fusepy (scripts/install-deps.sh)")
        }
    }

    /// Serves `backing` at `mountpoint` (an empty folder); `home` holds its list and log.
    init(backing: String, at mountpoint: String, home: TestDirectory) throws {
        self.mountpoint = mountpoint
        self.backing = backing
        rules = home.sub("failing-fs.rules")
        let logPath = home.sub("failing-fs.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, backing, mountpoint, rules]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        try eventually(timeout: 10, "the FUSE file system to be mounted at \(mountpoint)") {
            if !process.isRunning { throw HarnessError("failing-fs.py exited: \(Files.read(logPath) ?? "")") }
            return Files.mountPoints().contains(mountpoint)
        }
    }

    /// Replaces the list of failing paths (lines as the script reads them).
    func fail(_ lines: [String]) { Files.write(rules, lines.map { $0 + "\n" }.joined()) }

    func heal() { Files.remove(rules) }

    deinit {
        heal()
        _ = try? run("/usr/bin/fusermount", ["-u", mountpoint])
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
