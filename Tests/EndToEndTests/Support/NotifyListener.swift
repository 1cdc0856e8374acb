// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Synchronization

/// The test's side of NOTIFY_SOCKET: a datagram socket that collects what the
/// daemon tells systemd (READY=1, STATUS=..., WATCHDOG=1, ...), each message
/// with the monotonic time it arrived, read by a thread of its own.
final class NotifyListener: Sendable {
    struct Message: Sendable {
        var text: String
        var at: Double
        /// Each line of the datagram (a message may carry several assignments).
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    /// What the reader thread shares with the listener; the thread holds this,
    /// not the listener, so that dropping the listener ends the thread.
    private final class Mailbox: Sendable {
        let received = Mutex<[Message]>([])
        let closed = Atomic<Bool>(false)
    }

    let path: String
    private let mailbox = Mailbox()

    init(path: String) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket(AF_UNIX, SOCK_DGRAM): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw HarnessError("notify path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw HarnessError("bind \(path): \(String(cString: strerror(errno)))")
        }
        let mailbox = self.mailbox
        let thread = Thread {
            Self.readLoop(fd: fd, into: mailbox)
            close(fd)
            unlink(path)
        }
        thread.name = "notify-listener"
        thread.start()
    }

    deinit { mailbox.closed.store(true, ordering: .releasing) }

    private static func readLoop(fd: Int32, into mailbox: Mailbox) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !mailbox.closed.load(ordering: .acquiring) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { continue }
            let message = Message(text: String(decoding: buffer[0..<n], as: UTF8.self), at: Self.now())
            mailbox.received.withLock { $0.append(message) }
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    var messages: [Message] { mailbox.received.withLock { $0 } }

    /// Every line received so far that starts with `prefix`, with its arrival time.
    func lines(startingWith prefix: String) -> [(line: String, at: Double)] {
        messages.flatMap { m in m.lines.filter { $0.hasPrefix(prefix) }.map { ($0, m.at) } }
    }

    /// Waits until a line starting with `prefix` has arrived; returns the first such line.
    @discardableResult
    func waitFor(_ prefix: String, after: Double = 0, timeout: Double = 15) throws -> String {
        var found: String?
        try eventually(timeout: timeout, "\(prefix) on NOTIFY_SOCKET") {
            found = lines(startingWith: prefix).first { $0.at >= after }?.line
            return found != nil
        }
        return found ?? ""
    }
}
