// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorTestSupport
import Foundation

/// Runs an outside program (sqlite3, trash-cli, sha256sum) and collects what it
/// printed, through files: the one runner every test target shares.
typealias Tool = CuratorTestSupport.Tool
typealias SplitMix64 = CuratorTestSupport.SplitMix64
typealias ExifTool = CuratorTestSupport.ExifTool

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
