// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

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
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func writeRaw(_ data: Data) {
        var d = data
        if d.last != UInt8(ascii: "\n") { d.append(UInt8(ascii: "\n")) }
        FileHandle.standardOutput.write(d)
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
