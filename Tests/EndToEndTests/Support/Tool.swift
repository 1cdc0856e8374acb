// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// Runs an outside program (sqlite3, trash-cli, sha256sum) and collects what it
/// printed. Output goes to files, not pipes, so a chatty program never blocks on a
/// pipe nobody reads.
enum Tool {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func exists(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    input: String? = nil) throws -> Output {
        let scratch = TestDirectory("tool")
        let outPath = scratch.sub("stdout")
        let errPath = scratch.sub("stderr")
        let inPath = scratch.sub("stdin")
        for path in [outPath, errPath, inPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        if let input { try Data(input.utf8).write(to: URL(fileURLWithPath: inPath)) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        p.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
        try p.run()
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: Files.read(outPath) ?? "", stderr: Files.read(errPath) ?? "")
    }
}

/// SHA-256 of files, by `sha256sum`, so that "identical content" is checked by a
/// tool that knows nothing of ours.
enum Checksum {
    /// Path → hex digest, for the paths that could be read.
    static func sha256(_ paths: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        // A few hundred paths at a time keeps the argument list well inside ARG_MAX.
        var start = 0
        while start < paths.count {
            let chunk = Array(paths[start..<min(start + 500, paths.count)])
            start += chunk.count
            let out = try Tool.run("/usr/bin/sha256sum", ["--"] + chunk)
            for line in out.stdout.split(separator: "\n") {
                // "<64 hex>  <path>"
                guard line.count > 66 else { continue }
                let digest = String(line.prefix(64))
                let path = String(line.dropFirst(66))
                result[path] = digest
            }
        }
        return result
    }

    static func sha256(_ path: String) throws -> String? { try sha256([path])[path] }
}
