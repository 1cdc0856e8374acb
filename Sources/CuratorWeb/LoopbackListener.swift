// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// The gateway's listening socket, bound here rather than by the server so that it is
/// 127.0.0.1 unless said otherwise (and then only with TLS: `WebGateway`), and so that
/// the port (the kernel's choice for 0) is known before the first request: `Host` and
/// `Origin` are checked against it.
enum LoopbackListener {
    /// Whether an IPv4 address (network order) is in 127.0.0.0/8.
    static func isLoopback(_ address: in_addr) -> Bool { UInt32(bigEndian: address.s_addr) >> 24 == 127 }

    /// An IPv4 address in dotted form, or nil.
    static func parse(_ text: String) -> in_addr? {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1 ? address : nil
    }

    static func listen(port: UInt16, address host: in_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian),
                       backlog: Int32 = 64) throws(SystemError) -> (descriptor: FileDescriptor, port: UInt16) {
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = FileDescriptor(rawValue: try syscall("socket") { SystemCalls.socket(AF_INET, socketType, 0) })
        do {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = host
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            // A restarted gateway takes its port back at once, with connections of the
            // one before still in TIME_WAIT.
            var on: Int32 = 1
            _ = SystemCalls.setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            _ = try syscall("bind", path: "port \(port)") {
                withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SystemCalls.bind(fd.rawValue, $0, length) } }
            }
            _ = try syscall("listen") { SystemCalls.listen(fd.rawValue, backlog) }
            var bound = sockaddr_in()
            var boundLength = length
            _ = try syscall("getsockname") {
                withUnsafeMutablePointer(to: &bound) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SystemCalls.getsockname(fd.rawValue, $0, &boundLength) }
                }
            }
            return (fd, UInt16(bigEndian: bound.sin_port))
        } catch {
            try? fd.close()  // never listened on: nothing to lose
            throw error
        }
    }
}
