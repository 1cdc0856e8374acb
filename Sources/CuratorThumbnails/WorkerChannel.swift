// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CWorker
import Glibc

/// One end of the conversation between the thumbnailer worker and its client.
///
/// Over a SOCK_SEQPACKET socket (how the daemon runs the worker) every message is
/// one JSON object and may carry descriptors; over a pipe or file (a script, the
/// benchmark) every line is one, and nothing else passes. Not Sendable: one thread
/// talks on a channel.
public final class WorkerChannel {
    public enum Kind: Sendable { case messages, lines }

    /// Nothing longer is sent or accepted: a job names one file.
    public static let maxMessage = 1 << 20

    public let input: FileDescriptor
    public let output: FileDescriptor
    public let kind: Kind
    private var buffered: [UInt8] = []
    /// Where messages are received, allocated once.
    private var receiving: [UInt8] = []

    public init(input: FileDescriptor, output: FileDescriptor, kind: Kind) {
        self.input = input
        self.output = output
        self.kind = kind
    }

    /// The kind a descriptor calls for: messages on a socket, lines otherwise.
    public static func kind(of fd: FileDescriptor) throws(SystemError) -> Kind {
        try FileStatus.of(descriptor: fd).mode & S_IFMT == S_IFSOCK ? .messages : .lines
    }

    public struct Message {
        public var bytes: [UInt8]
        /// Descriptors that came with it; the receiver owns (and closes) them.
        public var descriptors: [FileDescriptor]
    }

    /// Sends one message (`bytes` hold no newline) with `descriptors` attached (copies
    /// travel; the caller keeps its own).
    public func send(_ bytes: [UInt8], descriptors: [FileDescriptor] = []) throws(SystemError) {
        precondition(!bytes.contains(UInt8(ascii: "\n")) && bytes.count < Self.maxMessage, "one line, bounded")
        switch kind {
        case .messages:
            let fds = descriptors.map(\.rawValue)
            _ = try syscall("sendmsg") {
                bytes.withUnsafeBytes { raw in
                    fds.withUnsafeBufferPointer { curator_send_with_fds(output.rawValue, raw.baseAddress, raw.count, $0.baseAddress, Int32($0.count)) }
                }
            }
        case .lines:
            guard descriptors.isEmpty else { throw SystemError("send", path: "descriptors over a pipe", errno: .invalid) }
            try output.writeAll(bytes + [UInt8(ascii: "\n")])
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) for input; false on timeout.
    public func wait(timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        if kind == .lines, buffered.contains(UInt8(ascii: "\n")) { return true }
        var entry = pollfd(fd: input.rawValue, events: Int16(POLLIN), revents: 0)
        let ready = try syscall("poll") { SystemCalls.poll(&entry, 1, timeoutMilliseconds) }
        return ready > 0
    }

    /// The next message; nil at the end (the other side closed).
    public func receive() throws(SystemError) -> Message? {
        switch kind {
        case .messages:
            if receiving.isEmpty { receiving = [UInt8](repeating: 0, count: Self.maxMessage) }
            var fds = [Int32](repeating: -1, count: Int(CURATOR_MAX_PASSED_FDS))
            var count: Int32 = 0
            let n = try syscall("recvmsg") {
                receiving.withUnsafeMutableBytes { raw in
                    fds.withUnsafeMutableBufferPointer { curator_receive_with_fds(input.rawValue, raw.baseAddress, raw.count, $0.baseAddress, &count) }
                }
            }
            let descriptors = fds[0..<Int(count)].map { FileDescriptor(rawValue: $0) }
            if n == 0 && descriptors.isEmpty { return nil }
            var bytes = Array(receiving[0..<n])
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            return Message(bytes: bytes, descriptors: descriptors)
        case .lines:
            while true {
                if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(buffered[..<newline])
                    buffered.removeSubrange(...newline)
                    return Message(bytes: line, descriptors: [])
                }
                guard buffered.count < Self.maxMessage else {
                    throw SystemError("read", path: "a line longer than \(Self.maxMessage) bytes", errno: Errno(EMSGSIZE))
                }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = try syscall("read") { chunk.withUnsafeMutableBytes { SystemCalls.read(input.rawValue, $0.baseAddress, $0.count) } }
                if n == 0 {
                    if buffered.isEmpty { return nil }
                    let line = buffered
                    buffered.removeAll()
                    return Message(bytes: line, descriptors: [])
                }
                buffered += chunk[0..<n]
            }
        }
    }
}
