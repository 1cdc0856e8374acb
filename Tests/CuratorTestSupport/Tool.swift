// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

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

        /// Both streams, for a message or a search that does not care which.
        public var output: String { stdout + stderr }
    }

    /// A program that did not end within its time: it was stopped.
    public struct TimedOut: Error, CustomStringConvertible {
        public let description: String
    }

    public static func exists(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// `input`: what the program reads on its standard input (none: /dev/null);
    /// `directory`: where it runs; `timeout`: seconds it may take before it is
    /// stopped and `TimedOut` thrown (none: as long as it takes).
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           input: String? = nil, directory workingDirectory: String? = nil,
                           timeout: Double? = nil) throws -> Output {
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
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
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
        if let timeout {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                throw TimedOut(description: "\(executable) \(arguments) did not finish within \(timeout) s")
            }
        }
        process.waitUntilExit()
        // Lossy: a tool may print a file name that is not UTF-8.
        let read = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Output(status: process.terminationStatus, stdout: read(out), stderr: read(err))
    }
}
