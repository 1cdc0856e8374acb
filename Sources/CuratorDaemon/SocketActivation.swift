// SPDX-License-Identifier: GPL-2.0-or-later
import CSystemd
import CuratorSystem
import Glibc

/// systemd socket activation: the .socket unit owns the path and hands us the
/// listening descriptor (sd_listen_fds), which we then serve as our own.
enum SocketActivation {
    static func listener() -> FileDescriptor? {
        let count = sd_listen_fds(1)
        guard count > 0 else { return nil }
        let fd = SD_LISTEN_FDS_START
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            log.warning("the descriptor systemd passed is not a listening Unix stream socket; ignoring it")
            return nil
        }
        if count > 1 { log.warning("systemd passed \(count) sockets; serving the first") }
        return FileDescriptor(rawValue: fd)
    }
}
