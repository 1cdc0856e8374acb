// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// An exclusive `flock` on a file, taken without waiting and held until the
/// process exits (the kernel drops it then, `kill -9` included). The holder's pid
/// is written into the file, so that whoever is refused can say who holds it.
/// The file is never removed: a process that unlinked it could let a third lock a
/// new file while a second still held the old one.
public struct LockFile: Sendable {
    public let path: ByteString
    /// Open for the life of the process (close-on-exec: no child inherits the lock).
    public let descriptor: FileDescriptor

    /// The lock is held by another process: its pid when it has written it.
    public struct Held: Error, Sendable {
        public var path: ByteString
        public var pid: Int32?
    }

    public enum Outcome: Sendable {
        case acquired(LockFile)
        case held(Held)
    }

    /// Takes the lock on `path` (created 0600 whatever the umask), or says who has it.
    public static func acquire(_ path: ByteString) throws(SystemError) -> Outcome {
        let fd = try FileDescriptor.open(path, O_RDWR | O_CREAT | curator_O_NOFOLLOW, mode: 0o600)
        do {
            _ = try syscall("fchmod", path: path.lossyString) { SystemCalls.fchmod(fd.rawValue, 0o600) }
            guard try nonBlockingSyscall("flock", { SystemCalls.flock(fd.rawValue, LOCK_EX | LOCK_NB) }) != nil else {
                let pid = holder(fd)
                try? fd.close()  // only read
                return .held(Held(path: path, pid: pid))
            }
            _ = try syscall("ftruncate", path: path.lossyString) { SystemCalls.ftruncate(fd.rawValue, 0) }
            try fd.writeAll(Array("\(getpid())\n".utf8), at: 0, path: path.lossyString)
        } catch {
            try? fd.close()  // the error that brought us here is the one to report
            throw error
        }
        return .acquired(LockFile(path: path, descriptor: fd))
    }

    /// The pid the holder wrote. It writes it just after taking the lock, so an
    /// empty file is read again for a moment before giving up.
    private static func holder(_ fd: FileDescriptor) -> Int32? {
        for attempt in 0..<20 {
            if attempt > 0 { usleep(10_000) }
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = buffer.withUnsafeMutableBytes { SystemCalls.pread(fd.rawValue, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { continue }
            let digits = buffer[0..<n].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            if let pid = Int32(String(decoding: digits, as: UTF8.self)), pid > 0 { return pid }
        }
        return nil
    }
}
