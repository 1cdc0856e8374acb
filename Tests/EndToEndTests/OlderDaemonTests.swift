// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// curatorctl against a curatord of another protocol version: an answer it cannot
/// decode is explained by the daemon's own `hello` (which curatorctl to use), not by
/// the JSON key that failed. The older daemon is the real one behind a proxy that
/// speaks as protocol 2 did: `hello` says 2 and a group's members are listed by
/// `path` (protocol 3 lists them by `name`).
@Suite struct OlderDaemonTests {
    /// Forwards each line to the real socket and rewrites the answers as protocol 2
    /// (or, with `same`, keeps hello's version and still breaks the members).
    static let proxy = #"""
    import json, os, socket, sys, threading
    listen_path, daemon_path, version = sys.argv[1], sys.argv[2], int(sys.argv[3])

    def older(line):
        answer = json.loads(line)
        result = answer.get("result")
        if isinstance(result, dict) and "protocol_version" in result:
            result["protocol_version"] = version
        if isinstance(result, dict) and isinstance(result.get("photos"), list):
            for photo in result["photos"]:
                folder = photo["path"].rpartition("/")[0]
                for member in photo.get("members", []):
                    member["path"] = folder + "/" + member.pop("name")
        return (json.dumps(answer) + "\n").encode()

    def serve(client):
        daemon = socket.socket(socket.AF_UNIX)
        daemon.connect(daemon_path)
        requests, answers = client.makefile("rb"), daemon.makefile("rb")
        for line in requests:
            daemon.sendall(line)
            client.sendall(older(answers.readline()))
        client.close()
        daemon.close()

    server = socket.socket(socket.AF_UNIX)
    server.bind(listen_path + ".tmp")
    server.listen(8)
    os.rename(listen_path + ".tmp", listen_path)  # the socket appears ready
    while True:
        client, _ = server.accept()
        threading.Thread(target=serve, args=(client,), daemon=True).start()
    """#

    struct Older {
        let daemon: Daemon
        let scratch: TestDirectory  // removed with the last reference: holds the proxy's socket
        let socket: String
        let proxy: Process
        /// SIGKILL: the test runner's children may inherit a mask that blocks SIGTERM.
        func stop() { kill(proxy.processIdentifier, SIGKILL); proxy.waitUntilExit() }
        /// curatorctl talking to the older daemon.
        func ctl(_ args: [String]) throws -> Command {
            try Command.run(Daemon.curatorctl, ["--socket", socket] + args, timeout: 30)
        }
    }

    /// A real daemon with one RAW+JPEG group, and a proxy to it answering as `version`.
    static func olderDaemon(version: Int) throws -> Older {
        let daemon = Watch.GroupWatching.daemon()
        let root = daemon.root()
        Files.write(root + "/IMG_0001.JPG", "jpeg")
        Files.write(root + "/IMG_0001.NEF", "raw raw raw")
        try daemon.start()
        let scratch = TestDirectory("older")
        let script = scratch.sub("proxy.py")
        Files.write(script, proxy)
        let socket = scratch.sub("older.sock")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, socket, daemon.socket, String(version)]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try eventually(timeout: 10, "the proxy's socket") { FileManager.default.fileExists(atPath: socket) }
        return Older(daemon: daemon, scratch: scratch, socket: socket, proxy: process)
    }

    @Test func lsOfAGroupFromAProtocol2DaemonNamesTheCuratorctlToUse() throws {
        let older = try Self.olderDaemon(version: 2)
        defer { older.stop() }
        let ls = try older.ctl(["ls"])
        #expect(ls.status == 4, "\(ls.output)")
        #expect(ls.stderr.contains("it speaks protocol 2 and this curatorctl protocol 3; use the curatorctl of curatord "),
                "\(ls.stderr)")
        #expect(!ls.stderr.contains("key"), "the message is about versions, not JSON: \(ls.stderr)")
        // A command whose shapes did not change still works with the older daemon.
        let status = try older.ctl(["status"])
        #expect(status.status == 0, "\(status.output)")
    }

    @Test func anUndecodableAnswerFromADaemonOfTheSameVersionSaysWhatFailed() throws {
        let older = try Self.olderDaemon(version: 3)
        defer { older.stop() }
        let ls = try older.ctl(["ls"])
        #expect(ls.status == 4, "\(ls.output)")
        #expect(ls.stderr.contains("does not understand"), "\(ls.stderr)")
        #expect(ls.stderr.contains("name"), "the key that failed: \(ls.stderr)")
        #expect(!ls.stderr.contains("it speaks protocol"), "\(ls.stderr)")
    }
}
