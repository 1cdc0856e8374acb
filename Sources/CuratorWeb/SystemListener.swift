// SPDX-License-Identifier: GPL-2.0-or-later
import CSystemd
import CuratorSystem
import Glibc

/// The listening socket systemd passes under socket activation (curatord-web.socket):
/// the first of LISTEN_FDS, and its port, which `Host` and `Origin` are checked against.
enum SystemListener {
    static func inherited() throws(SystemError) -> (descriptor: FileDescriptor, port: UInt16)? {
        let count = sd_listen_fds(1)
        guard count > 0 else { return nil }
        let fd = SD_LISTEN_FDS_START
        guard sd_is_socket(fd, AF_UNSPEC, Int32(SOCK_STREAM.rawValue), 1) > 0 else {
            throw SystemError("sd_is_socket", errno: Errno(ENOTSOCK))
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try syscall("getsockname") {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SystemCalls.getsockname(fd, $0, &length) }
            }
        }
        let bound = address
        let port: UInt16 = withUnsafePointer(to: bound) { pointer in
            switch Int32(bound.ss_family) {
            case AF_INET: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            case AF_INET6: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            default: 0
            }
        }
        return (FileDescriptor(rawValue: fd), port)
    }
}
