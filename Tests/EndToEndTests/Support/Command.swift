// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// Runs a program to completion and collects what it printed (through files,
/// never a pipe that could fill while we wait).
struct Command {
    var status: Int32
    var stdout: String
    var stderr: String
    var output: String { stdout + stderr }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    directory: String? = nil, timeout: Double = 120) throws -> Command {
        let scratch = TestDirectory("cmd")
        let outPath = scratch.sub("out")
        let errPath = scratch.sub("err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try p.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
            throw HarnessError("\(executable) \(arguments) did not finish within \(timeout) s")
        }
        return Command(status: p.terminationStatus, stdout: Files.read(outPath) ?? "", stderr: Files.read(errPath) ?? "")
    }
}
