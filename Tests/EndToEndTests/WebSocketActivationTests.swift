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
    /// still serving then (killed), and what it said. One shell does it all, so that
    /// every process it starts is waited for by it.
    static func activate(_ address: String, seconds: Int) throws -> (status: Int32?, log: String) {
        let directory = TestDirectory("webactivate")
        let logPath = directory.sub("web.log")
        let port = try freePort()
        let script = """
            systemd-socket-activate -l "$1" "$2" --system --socket "$3" >"$4" 2>&1 </dev/null &
            pid=$!
            for i in $(seq 50); do
                python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()' "$5" \
                    2>/dev/null && break
                sleep 0.1
            done
            for i in $(seq $(( $6 * 10 ))); do
                if ! kill -0 "$pid" 2>/dev/null; then wait "$pid"; echo "exit $?"; exit 0; fi
                sleep 0.1
            done
            kill -9 "$pid"; wait "$pid"; echo running
            """
        let out = try Command.run("/bin/sh", ["-c", script, "sh", "\(address):\(port)", WebGatewayProcess.binary,
                                              directory.sub("none.sock"), logPath, String(port), String(seconds)], timeout: 60)
        let said = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let status = said.hasPrefix("exit ") ? Int32(said.dropFirst(5)) : nil
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
