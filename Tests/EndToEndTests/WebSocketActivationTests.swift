// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The system gateway under socket activation (issue 51): the socket systemd passes
/// is held to the rule the gateway's own is, plain HTTP on loopback only.
@Suite(.serialized)
struct WebSocketActivationTests {
    /// A TCP port nothing listens on just now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw HarnessError("bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `curatord-web --system` started by systemd-socket-activate on `address:port`,
    /// woken by a first connection; its exit status within `seconds`, or nil if it is
    /// still serving then (stopped), and what it said.
    static func activate(_ address: String, seconds: Double) throws -> (status: Int32?, log: String) {
        let directory = TestDirectory("webactivate")
        let logPath = directory.sub("web.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        process.arguments = ["-l", "\(address):\(port)", WebGatewayProcess.binary, "--system", "--socket", directory.sub("none.sock")]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        // systemd-socket-activate starts the program at the first connection.
        try eventually(timeout: 10, "systemd-socket-activate to listen") {
            let out = try Command.run("/usr/bin/python3", ["-c", """
                import socket, sys
                try:
                    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
                except OSError:
                    sys.exit(1)
                """, String(port)])
            return out.status == 0
        }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let status: Int32? = process.isRunning ? nil : process.terminationStatus
        return (status, Files.read(logPath) ?? "")
    }

    @Test func aSocketActivatedGatewayRefusesPlainHTTPBeyondLoopback() throws {
        guard Tool.exists("/usr/bin/systemd-socket-activate") else { return print("skipped: needs systemd-socket-activate") }
        let wide = try Self.activate("0.0.0.0", seconds: 10)
        #expect(wide.status != nil && wide.status != 0, "served plain HTTP on 0.0.0.0: \(wide.log)")
        #expect(wide.log.contains("--tls-cert"), "\(wide.log)")

        // On loopback it serves (and is stopped by the test).
        let local = try Self.activate("127.0.0.1", seconds: 2)
        #expect(local.status == nil, "\(local.log)")
    }
}
