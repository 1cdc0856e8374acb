// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

/// A fresh directory under $TMPDIR for one test, removed (whatever the names in it)
/// when the value goes away. Shared by the thumbnail and imaging tests.
public final class Scratch {
    public let path: ByteString

    public init() throws {
        var template = Array((NSTemporaryDirectory() + "/curatord-thumbs-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", errno: .current) }
        path = ByteString(String(cString: made))
    }

    deinit {
        _ = try? Tool.run("/bin/rm", ["-rf", "--", path.lossyString])
    }

    public var string: String { path.lossyString }

    public func child(_ name: ByteString) -> ByteString { path.appending(name) }

    @discardableResult
    public func write(_ name: ByteString, _ bytes: [UInt8], mode: mode_t = 0o644) throws -> ByteString {
        let full = path.appending(name)
        let fd = try FileDescriptor.open(full, O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
        try fd.closeAfter { (fd) throws(SystemError) in try fd.writeAll(bytes) }
        return full
    }

    public func read(_ full: ByteString) throws -> [UInt8] {
        let fd = try FileDescriptor.open(full, O_RDONLY)
        return try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll() }
    }

    public func mkdir(_ name: ByteString, mode: mode_t = 0o755) throws -> ByteString {
        let full = path.appending(name)
        _ = try syscall("mkdir", path: full.lossyString) { full.withCString { Glibc.mkdir($0, mode) } }
        return full
    }
}

/// Runs an outside program, its output collected through files (never an unread pipe).
public enum Tool {
    public struct Output {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    public static func exists(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// `input`: what the program reads on its standard input (none: /dev/null).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           input: String? = nil) throws -> Output {
        let directory = NSTemporaryDirectory() + "/curatord-tool-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/stdout", err = directory + "/stderr"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        if let input {
            let path = directory + "/stdin"
            try Data(input.utf8).write(to: URL(fileURLWithPath: path))
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        // Lossy: a tool may print a file name that is not UTF-8.
        let read = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Output(status: process.terminationStatus, stdout: read(out), stderr: read(err))
    }
}
