// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

enum Format {
    /// 12.4 MB, as people read sizes (powers of 1000, like file managers).
    static func bytes(_ n: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(n)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(n) B" }
        return String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }

    /// Photos and orphaned sidecars (which are no photos) in one phrase: "2 photos (5
    /// files) and 1 orphaned sidecar"; `files`, where given and not the photos' number,
    /// says how many files the photos' groups make.
    static func photosAndOrphans(_ photos: Int, orphans: Int, files: Int? = nil) -> String {
        var parts: [String] = []
        if photos > 0 || orphans == 0 {
            let counted = plural(photos, "photo")
            parts.append(files.map { $0 == photos ? counted : "\(counted) (\(plural($0, "file")))" } ?? counted)
        }
        if orphans > 0 { parts.append(plural(orphans, "orphaned sidecar")) }
        return parts.joined(separator: " and ")
    }

    static func plural(_ n: Int, _ word: String) -> String {
        if n == 1 { return "1 \(word)" }
        let suffix = word.hasSuffix("ch") || word.hasSuffix("s") || word.hasSuffix("x") ? "es" : "s"
        return "\(n) \(word)\(suffix)"
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        if count >= width { return text }
        let fill = String(repeating: " ", count: width - count)
        return right ? fill + text : text + fill
    }

    static var isTerminal: Bool { isatty(1) != 0 }

    static func write(_ text: String) {
        emit(Array((text + "\n").utf8), to: 1)
    }

    static func writeRaw(_ data: Data) {
        var d = data
        if d.last != UInt8(ascii: "\n") { d.append(UInt8(ascii: "\n")) }
        emit([UInt8](d), to: 1)
    }

    static func error(_ text: String) {
        emit(Array((text + "\n").utf8), to: 2)
    }

    /// Text on stderr without a newline (prompts, the progress bar).
    static func prompt(_ text: String) {
        emit(Array(text.utf8), to: 2)
    }

    /// Writes everything with write(2). A reader that went away (`curatorctl ls |
    /// head`) ends the program quietly, as it does for any Unix tool, instead of
    /// Foundation's FileHandle trapping on EPIPE.
    static func emit(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return SystemCalls.write(fd, base + offset, buffer.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                return
            }
            offset += n
        }
    }
}
