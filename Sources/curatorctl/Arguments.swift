// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// The words after the subcommand, consumed by each command's parser.
struct ArgumentList {
    private(set) var items: [String]

    init(_ items: [String]) { self.items = items }

    var isEmpty: Bool { items.isEmpty }

    /// Removes `--flag` (or `-f`) if present.
    mutating func flag(_ names: String...) -> Bool {
        guard let i = items.firstIndex(where: names.contains) else { return false }
        items.remove(at: i)
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE`; the last one wins.
    mutating func option(_ names: String...) throws(CLIError) -> String? {
        var found: String?
        var i = 0
        while i < items.count {
            let item = items[i]
            if names.contains(item) {
                guard i + 1 < items.count else { throw CLIError.usage("\(item) needs a value") }
                found = items[i + 1]
                items.removeSubrange(i...(i + 1))
                continue
            }
            if let name = names.first(where: { item.hasPrefix($0 + "=") }) {
                found = String(item.dropFirst(name.count + 1))
                items.remove(at: i)
                continue
            }
            i += 1
        }
        return found
    }

    mutating func intOption(_ names: String...) throws(CLIError) -> Int? {
        var found: String?
        for name in names where found == nil { found = try option(name) }
        guard let text = found else { return nil }
        guard let value = Int(text) else { throw CLIError.usage("\(names[0]) needs a whole number, not \"\(text)\"") }
        return value
    }

    /// What is left: positional words. Unknown options are an error.
    mutating func positionals() throws(CLIError) -> [String] {
        if let unknown = items.first(where: { $0.hasPrefix("--") }) {
            throw CLIError.usage("unknown option \(unknown)")
        }
        defer { items.removeAll() }
        return items
    }

    mutating func noMore() throws(CLIError) {
        let rest = try positionals()
        if !rest.isEmpty { throw CLIError.usage("unexpected argument \"\(rest[0])\"") }
    }
}

/// Options every command takes.
struct GlobalOptions {
    var socket: String
    var json = false
    var session: String?

    static func defaultSocket() -> String {
        let env = ProcessInfo.processInfo.environment
        if let path = env["CURATORD_SOCKET"], !path.isEmpty { return path }
        if let runtime = env["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/curatord.sock" }
        if getuid() == 0 { return "/run/curatord/curatord.sock" }
        return "/tmp/curatord-\(getuid())/curatord.sock"
    }
}
