// SPDX-License-Identifier: GPL-2.0-or-later
import CSystemd
import Foundation
import Glibc

/// Talks to systemd through libsystemd's sd_notify. Without NOTIFY_SOCKET every
/// call is a no-op, so the daemon behaves the same when started by hand.
enum SystemdNotifier {
    static var isEnabled: Bool { ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] != nil }

    static func send(_ state: String) {
        _ = sd_notify(0, state)
    }

    static func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    static func status(_ text: String) { send("STATUS=\(text)") }
    static func stopping() { send("STOPPING=1") }

    /// RELOADING=1 with the monotonic timestamp systemd expects alongside it.
    static func reloading() {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let usec = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
        send("RELOADING=1\nMONOTONIC_USEC=\(usec)")
    }
}
