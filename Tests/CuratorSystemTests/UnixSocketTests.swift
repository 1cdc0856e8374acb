// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// The listening socket's file gets exactly the mode asked for, and making it
/// never touches the umask, which is the whole process's (issue 11 point 18).
@Suite(.serialized)
struct UnixSocketTests {
    /// The process's umask, read without changing it.
    static func currentUmask() -> mode_t? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("Umask:") {
            return mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        }
        return nil
    }

    static func mode(_ path: ByteString) -> mode_t? {
        var st = stat()
        return path.withCString { lstat($0, &st) } == 0 ? st.st_mode & 0o7777 : nil
    }

    @Test func aListenThatFailsLeavesTheUmaskAsItWas() throws {
        let scratch = try ScratchDirectory()
        let before = try #require(Self.currentUmask())
        // Longer than a sockaddr_un holds: refused before bind.
        let long = scratch.path.appending(ByteString(String(repeating: "s", count: 200)))
        #expect(throws: SystemError.self) { try UnixSocket.listen(at: long, mode: 0o600) }
        #expect(Self.currentUmask() == before)
        // A directory that does not exist: bind itself fails.
        #expect(throws: SystemError.self) { try UnixSocket.listen(at: scratch.child("missing/s.sock"), mode: 0o600) }
        #expect(Self.currentUmask() == before)
    }

    @Test func theSocketHasExactlyTheModeAskedForWhateverTheUmask() throws {
        let scratch = try ScratchDirectory()
        for mode: mode_t in [0o600, 0o660, 0o666] {
            let path = scratch.child(ByteString("s\(String(mode, radix: 8)).sock"))
            let fd = try UnixSocket.listen(at: path, mode: mode)
            defer { try? fd.close() }
            #expect(Self.mode(path) == mode, "asked \(String(mode, radix: 8))")
        }
    }

    /// Files other threads create while the socket is made keep the process's umask:
    /// with a process-wide umask of 0177 around bind, some came out 0600.
    @Test func filesCreatedMeanwhileKeepTheProcessUmask() throws {
        let scratch = try ScratchDirectory()
        let umaskNow = try #require(Self.currentUmask())
        let expected = 0o666 & ~umaskNow
        try #require(expected != 0o600, "the test needs a umask that gives files other than 0600")
        let stop = Atomic<Bool>(false)
        let wrong = Mutex<[mode_t]>([])
        let created = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let files = scratch.path
        Thread.detachNewThread {
            var n = 0
            while !stop.load(ordering: .relaxed) {
                let path = files.appending(ByteString("f\(n % 8)"))
                let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
                if fd >= 0 {
                    var st = stat()
                    fstat(fd, &st)
                    if st.st_mode & 0o777 != expected { wrong.withLock { $0.append(st.st_mode & 0o777) } }
                    close(fd)
                    _ = path.withCString { unlink($0) }
                    created.add(1, ordering: .relaxed)
                }
                n += 1
            }
            done.signal()
        }
        let socket = scratch.child("s.sock")
        for _ in 0..<400 {
            let fd = try UnixSocket.listen(at: socket, mode: 0o600)
            try fd.close()
            _ = socket.withCString { unlink($0) }
        }
        stop.store(true, ordering: .relaxed)
        done.wait()
        #expect(created.load(ordering: .relaxed) > 0)
        let modes = wrong.withLock { $0 }
        #expect(modes.isEmpty, "\(modes.count) files came out \(Set(modes).map { String($0, radix: 8) }), not \(String(expected, radix: 8))")
    }
}
