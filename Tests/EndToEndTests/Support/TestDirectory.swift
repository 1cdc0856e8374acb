// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorTestSupport
import Foundation
import Glibc

/// A private temporary directory, removed when the value goes away.
final class TestDirectory {
    let path: String

    init(_ label: String = "e2e") {
        var template = Array("/tmp/curatord-\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let result = mkdtemp(base) else { return nil }
            return String(cString: result)
        }
        path = made ?? "/tmp/curatord-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Whatever is still mounted below (a share whose owner was released after this
    /// directory: Swift frees a value after its last use, not at the end of its scope)
    /// is detached first; `FileManager.removeItem` gave up at such a mount point, and
    /// every full run of the tests left some thirty of these directories in /tmp.
    deinit {
        for point in Files.mountPoints().filter({ $0.hasPrefix(path + "/") }).sorted(by: { $0.count > $1.count }) {
            _ = try? Tool.run("/bin/umount", ["-l", point])
        }
        _ = try? Tool.run("/bin/rm", ["-rf", "--", path])
    }

    func sub(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func mkdir(_ relative: String) -> String {
        let p = sub(relative)
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }
}

enum Files {
    /// Where something is mounted now: the fifth field of each line of
    /// /proc/self/mountinfo, its spaces unescaped (`\040`).
    static func mountPoints() -> [String] {
        (read("/proc/self/mountinfo") ?? "").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 ? String(fields[4]).replacingOccurrences(of: "\\040", with: " ") : nil
        }
    }

    /// Writes a file in one go (create, write, close: one close-write event).
    static func write(_ path: String, _ text: String = "photo") {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create \(path): \(String(cString: strerror(errno)))")
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    static func write(bytes path: [UInt8], _ text: String = "photo") {
        var p = path
        p.append(0)
        let fd = p.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        precondition(fd >= 0, "cannot create file: \(String(cString: strerror(errno)))")
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// lstat of a path given as bytes (a name that is not UTF-8).
    static func status(bytes path: [UInt8]) -> stat? {
        var st = stat()
        let found = withCPath(path) { lstat($0, &st) == 0 }
        return found ? st : nil
    }

    static func read(bytes path: [UInt8]) -> String? {
        let fd = withCPath(path) { open($0, O_RDONLY) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func rename(_ from: String, _ to: String) {
        precondition(Glibc.rename(from, to) == 0, "rename \(from) -> \(to): \(String(cString: strerror(errno)))")
    }

    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    static func inode(_ path: String) -> UInt64? {
        var st = stat()
        return lstat(path, &st) == 0 ? UInt64(st.st_ino) : nil
    }

    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
}

/// Waits for a condition with a bound instead of sleeping a fixed time.
func eventually(timeout: Double = 10, _ what: String = "condition", _ condition: () throws -> Bool) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if try condition() { return }
        usleep(20_000)
    }
    if try condition() { return }
    throw HarnessError("timed out after \(timeout) s waiting for \(what)")
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ text: String) { description = text }
}
