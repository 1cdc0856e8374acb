// SPDX-License-Identifier: GPL-2.0-or-later
import CSystemd
import CuratorSystem
import Glibc

/// Talks to systemd through libsystemd's sd_notify. Without NOTIFY_SOCKET every
/// call is a no-op, so the daemon behaves the same when started by hand.
enum SystemdNotifier {
    static func send(_ state: String) {
        let rc = sd_notify(0, state)
        if rc < 0 { log.debug("sd_notify(\(state.prefix(while: { $0 != "=" }))): \(Errno(-rc))") }
    }

    static func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    static func status(_ text: String) { send("STATUS=\(text)") }
    static func watchdog() { send("WATCHDOG=1") }
    static func stopping(status: String) { send("STOPPING=1\nSTATUS=\(status)") }

    /// RELOADING=1 with the monotonic timestamp newer systemd expects alongside it
    /// (253+; 252 ignores it). READY=1 must follow when the reload is over.
    static func reloading() {
        let usec = MonotonicClock.nanoseconds() / 1000
        send("RELOADING=1\nMONOTONIC_USEC=\(usec)")
    }
}
