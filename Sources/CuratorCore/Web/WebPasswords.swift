// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// The web passwords' file in the state directory, `web-passwords`: one line per user,
/// `<uid> <Argon2id string>`, mode 0600, replaced whole (a new file, synced, renamed
/// over the old one, the directory synced) so that a crash leaves the old set or the
/// new one. By uid, not name: a renamed account keeps its password, a name reused by
/// a new account gets none.
struct WebPasswords {
    let directory: ByteString
    let path: ByteString
    private(set) var hashes: [UInt32: String] = [:]

    static let fileName = "web-passwords"

    init(stateDirectory: ByteString) throws(ProtocolError) {
        directory = stateDirectory
        path = stateDirectory.appending(ByteString(Self.fileName))
        hashes = try Self.read(path)
    }

    private static func read(_ path: ByteString) throws(ProtocolError) -> [UInt32: String] {
        let fd = path.withCString { SystemCalls.openat(AT_FDCWD, $0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) }
        if fd < 0 {
            if errno == ENOENT { return [:] }
            throw ProtocolError(.internalError, "cannot read \(path.lossyString): \(Errno(errno))")
        }
        defer { _ = SystemCalls.close(fd) }  // read only: nothing to lose
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = chunk.withUnsafeMutableBytes { SystemCalls.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw ProtocolError(.internalError, "cannot read \(path.lossyString): \(Errno(errno))") }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > 16 << 20 { throw ProtocolError(.internalError, "\(path.lossyString) is larger than 16 MiB") }
        }
        var hashes: [UInt32: String] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 1)
            guard fields.count == 2, let uid = UInt32(String(decoding: fields[0], as: UTF8.self)) else { continue }
            hashes[uid] = String(decoding: fields[1], as: UTF8.self)
        }
        return hashes
    }

    mutating func set(uid: UInt32, hash: String) throws(ProtocolError) {
        var next = hashes
        next[uid] = hash
        try write(next)
        hashes = next
    }

    private func write(_ table: [UInt32: String]) throws(ProtocolError) {
        let text = table.keys.sorted().map { "\($0) \(table[$0] ?? "")\n" }.joined()
        let temporary = ByteString(path.lossyString + ".new")
        func fail(_ what: String) -> ProtocolError {
            ProtocolError(.internalError, "cannot write \(path.lossyString) (\(what)): \(Errno(errno))")
        }
        _ = temporary.withCString { SystemCalls.unlinkat(AT_FDCWD, $0, 0) }
        let fd = temporary.withCString { SystemCalls.openat(AT_FDCWD, $0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        guard fd >= 0 else { throw fail("open") }
        var closed = false
        defer { if !closed { _ = SystemCalls.close(fd) } }  // failed already: the rename will not happen
        // The mode is set whatever the umask was.
        guard SystemCalls.fchmod(fd, 0o600) == 0 else { throw fail("fchmod") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { SystemCalls.write(fd, $0.baseAddress?.advanced(by: written), $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw fail("write") }
            written += n
        }
        guard SystemCalls.fsync(fd) == 0 else { throw fail("fsync") }
        closed = true
        guard SystemCalls.close(fd) == 0 else { throw fail("close") }
        let renamed = temporary.withCString { from in path.withCString { to in SystemCalls.renameat2(AT_FDCWD, from, AT_FDCWD, to, 0) } }
        guard renamed == 0 else { throw fail("rename") }
        let dirFD = directory.withCString { SystemCalls.openat(AT_FDCWD, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        if dirFD >= 0 {
            _ = SystemCalls.fsync(dirFD)
            _ = SystemCalls.close(dirFD)  // a directory: nothing to lose
        }
    }
}
