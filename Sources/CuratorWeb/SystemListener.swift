// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// The listening socket systemd passes under socket activation (curatord-web.socket):
/// the first of LISTEN_FDS, its port, which `Host` and `Origin` are checked against,
/// and whether it is bound to loopback only. Read here by the protocol of
/// sd_listen_fds(3) rather than through libsystemd, which would be loaded (with the
/// libraries it needs) into every gateway for these few lines.
enum SystemListener {
    struct Inherited {
        var descriptor: FileDescriptor
        var port: UInt16
        /// 127.0.0.0/8 or ::1 (or a Unix socket): nothing beyond this computer reaches it.
        var loopback: Bool
    }

    static let firstDescriptor: Int32 = 3

    static func inherited() throws(SystemError) -> Inherited? {
        guard let pid = environment("LISTEN_PID").flatMap(Int32.init), pid == getpid(),
              let count = environment("LISTEN_FDS").flatMap(Int.init), count > 0 else { return nil }
        // Nothing the gateway might start inherits them.
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd = firstDescriptor
        _ = SystemCalls.fcntl(fd, F_SETFD, FD_CLOEXEC)
        guard isListeningStream(fd) else { throw SystemError("LISTEN_FDS", errno: Errno(ENOTSOCK)) }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try syscall("getsockname") {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SystemCalls.getsockname(fd, $0, &length) }
            }
        }
        let bound = address
        let (port, loopback): (UInt16, Bool) = withUnsafePointer(to: bound) { pointer in
            switch Int32(bound.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    (UInt16(bigEndian: $0.pointee.sin_port), LoopbackListener.isLoopback($0.pointee.sin_addr))
                }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    (UInt16(bigEndian: $0.pointee.sin6_port), isLoopback($0.pointee.sin6_addr))
                }
            case AF_UNIX: (0, true)
            default: (0, false)
            }
        }
        return Inherited(descriptor: FileDescriptor(rawValue: fd), port: port, loopback: loopback)
    }

    /// ::1, or an IPv4-mapped address in 127.0.0.0/8 (`::` is every address, not loopback).
    static func isLoopback(_ address: in6_addr) -> Bool {
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    /// A socket, of type stream, listening (sd_is_socket's test).
    private static func isListeningStream(_ fd: Int32) -> Bool {
        var status = stat()
        guard SystemCalls.fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return false }
        var type: Int32 = 0
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue) else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0 && accepting == 1
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
