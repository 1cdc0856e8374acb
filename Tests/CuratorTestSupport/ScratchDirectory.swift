// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

/// A fresh directory under $TMPDIR for one test, removed (whatever the names in
/// it, UTF-8 or not) when the value goes away. The one every test target uses.
///
/// Made, filled and read with Glibc directly, never with the code under test: a
/// test that arms a fault plan (`FaultPlan`) or breaks `FileDescriptor` still gets
/// its fixtures written as asked.
public final class ScratchDirectory {
    public let path: ByteString

    /// `label` names the directory (`curatord-<label>-XXXXXX`), for whoever finds one left.
    public init(label: String = "test") throws {
        var template = Array((NSTemporaryDirectory() + "/curatord-\(label)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", errno: .current) }
        path = ByteString(String(cString: made))
    }

    deinit {
        _ = try? Tool.run("/bin/rm", ["-rf", "--", path.lossyString])
    }

    public var string: String { path.lossyString }

    public func child(_ name: ByteString) -> ByteString { path.appending(name) }

    /// Writes `bytes` at `name` (relative; its folders made as needed) in one
    /// open, write, close, and returns the full path.
    @discardableResult
    public func write(_ name: ByteString, _ bytes: [UInt8], mode: mode_t = 0o644) throws -> ByteString {
        var parent = path
        for component in name.parent.components {
            parent = parent.appending(component)
            if parent.withCString({ Glibc.mkdir($0, 0o755) }) != 0 && errno != EEXIST {
                throw SystemError("mkdir", path: parent.lossyString, errno: .current)
            }
        }
        let full = path.appending(name)
        let fd = full.withCString { Glibc.open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemError("open", path: full.lossyString, errno: .current) }
        defer { Glibc.close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw SystemError("write", path: full.lossyString, errno: .current) }
            written += n
        }
        return full
    }

    /// The bytes of the file at `full` (a path, in this directory or not).
    public func read(_ full: ByteString) throws -> [UInt8] {
        let fd = full.withCString { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("open", path: full.lossyString, errno: .current) }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw SystemError("read", path: full.lossyString, errno: .current) }
            if n == 0 { return bytes }
            bytes += buffer[0..<n]
        }
    }

    /// The bytes at `name` in this directory, or nil when it cannot be read (there is none).
    public func contents(of name: ByteString) -> [UInt8]? { try? read(child(name)) }

    /// Makes the folder `name` here (its parent must exist) and returns its full path.
    @discardableResult
    public func mkdir(_ name: ByteString, mode: mode_t = 0o755) throws -> ByteString {
        let full = path.appending(name)
        guard full.withCString({ Glibc.mkdir($0, mode) }) == 0 else { throw SystemError("mkdir", path: full.lossyString, errno: .current) }
        return full
    }
}
