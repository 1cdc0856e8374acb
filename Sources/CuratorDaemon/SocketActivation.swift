// SPDX-License-Identifier: GPL-2.0-or-later
import CSystemd
import CuratorSystem
import Glibc

/// systemd socket activation: the .socket unit owns the path (and its mode,
/// owner and directory) and hands us the listening descriptor, which we then
/// serve as our own. Started by hand, there is none and we listen ourselves.
enum SocketActivation {
    struct Inherited {
        var descriptor: FileDescriptor
        /// Where the socket really is, read back from the descriptor: the path in
        /// the configuration may say otherwise, and logs must not mislead.
        var path: ByteString?
    }

    static func listener() -> Inherited? {
        // 1: unset LISTEN_FDS/LISTEN_PID so nothing we might start inherits them.
        let count = sd_listen_fds(1)
        if count < 0 {
            log.warning("cannot read the sockets systemd passed: \(Errno(-count))")
            return nil
        }
        guard count > 0 else { return nil }
        let fd = SD_LISTEN_FDS_START
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            log.warning("the descriptor systemd passed is not a listening Unix stream socket; ignoring it")
            return nil
        }
        if count > 1 { log.warning("systemd passed \(count) sockets; serving the first") }
        return Inherited(descriptor: FileDescriptor(rawValue: fd), path: boundPath(of: fd))
    }

    /// The file-system path a Unix socket is bound to (nil for abstract or unnamed ones).
    static func boundPath(of fd: Int32) -> ByteString? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let rc = try? withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemError) in
                try syscall("getsockname") { SystemCalls.getsockname(fd, raw, &length) }
            }
        }
        guard rc != nil else { return nil }
        let header = MemoryLayout<sa_family_t>.size
        guard Int(length) > header else { return nil }
        let bytes = withUnsafeBytes(of: &address.sun_path) { raw in Array(raw.prefix(Int(length) - header)) }
        guard let first = bytes.first, first != 0 else { return nil }
        return ByteString(Array(bytes.prefix { $0 != 0 }))
    }
}
