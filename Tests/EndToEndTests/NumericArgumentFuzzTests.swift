// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import Foundation
import Testing

/// Every integer a client can send, at its extremes, to every command: the daemon
/// answers each (a result or an error) and is still there to answer the next. The
/// integer arguments are read off the request types themselves, so a command or an
/// argument added later is fuzzed without being listed here.
@Suite(.serialized)
struct NumericArgumentFuzzTests {
    /// Numbers as a client may write them: the edges of 32 and 64 bits, past them,
    /// a double's largest exact integer, and numbers that are not integers at all.
    static let extremes = [
        "0", "-1", "2147483648", "9007199254740992", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "1.5", "1e300",
    ]

    /// Positions as a person types them, at the same edges (`select 9-12`).
    static let positionTexts = [
        "0", "-1", "9223372036854775807", "99999999999999999999", "1 1-9223372036854775807",
        "9223372036854775807-1", "9223372036854775806-9223372036854775807", "1-999999 1-999999", "2147483648-2147483647",
    ]

    /// What a request of each command must carry besides its integers (the rest of
    /// the line it is fuzzed in). The session is in select mode with the custom
    /// order, so that positions reach the code that counts with them.
    static func required(_ name: String) -> [String: Any] {
        switch name {
        case "view": ["root": "pics", "sort": "custom"]
        case "mode": ["mode": "select"]
        case "select", "deselect", "toggle": ["positions": "1"]
        case "reorder": ["position": 1, "to": 2]
        case "delete.confirm": ["token": "t"]
        case "trash.empty": ["token": "t"]
        case "list": ["sort": "custom"]
        case "rate": ["flag": "none"]
        default: [:]
        }
    }

    struct IntegerArgument: CustomStringConvertible {
        var command: String
        var key: String
        var isArray: Bool
        var description: String { "\(command) \(key)\(isArray ? "[]" : "")" }
    }

    /// The integer arguments of every command, found by decoding a request of it and
    /// looking at the fields of its arguments' type (a view's or a selector's, which
    /// sit beside the others on the wire, included).
    static func integerArguments() throws -> [IntegerArgument] {
        var found: [IntegerArgument] = []
        for name in CommandTable.known.names {
            var object = required(name)
            object["cmd"] = name
            let line = try JSONSerialization.data(withJSONObject: object)
            let request: Request
            switch Wire.decodeRequest(line, known: CommandTable.known) {
            case .success(let decoded): request = decoded
            case .failure(let failure):
                throw HarnessError("\(name): a request of it does not decode (\(failure.error.message)); say what it requires in `required`")
            }
            let arguments = request.command
            for (key, isArray) in try integerFields(of: arguments, command: name) {
                found.append(IntegerArgument(command: name, key: key, isArray: isArray))
            }
        }
        return found
    }

    static let integerTypes: Set<String> = ["Int", "Int64", "Int32", "UInt32", "UInt64", "UInt", "Int16", "UInt16", "Int8", "UInt8"]

    private static func integerFields(of value: Any, command: String) throws -> [(String, Bool)] {
        var fields: [(String, Bool)] = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            var type = String(describing: Swift.type(of: child.value))
            if type.hasPrefix("Optional<") { type = String(type.dropFirst("Optional<".count).dropLast()) }
            // rate's parts: a value, `null` to clear, or left out; an integer on the wire.
            if type.hasPrefix("Part<") { type = String(type.dropFirst("Part<".count).dropLast()) }
            if integerTypes.contains(type) {
                fields.append((snakeCase(label), false))
            } else if type.hasPrefix("Array<"), integerTypes.contains(String(type.dropFirst("Array<".count).dropLast())) {
                fields.append((snakeCase(label), true))
            } else if type.contains("Int") {
                throw HarnessError("\(command).\(label) is a \(type): teach this test how to write one")
            } else {
                // A view's or a selector's fields sit beside the command's own.
                var unwrapped = child.value
                let mirror = Mirror(reflecting: unwrapped)
                if mirror.displayStyle == .optional, let some = mirror.children.first?.value { unwrapped = some }
                if Mirror(reflecting: unwrapped).displayStyle == .struct {
                    fields += try integerFields(of: unwrapped, command: command)
                }
            }
        }
        return fields
    }

    /// `olderThanDays` as the wire spells it.
    static func snakeCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase { out += "_" + character.lowercased() } else { out.append(character) }
        }
        return out
    }

    /// A line of `object` with `key` set to `literal` exactly as written.
    static func line(_ object: [String: Any], key: String, literal: String) throws -> String {
        var object = object
        object[key] = nil
        let json = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        return "{\"\(key)\":\(literal)," + json.dropFirst()
    }

    @Test func theIntegerArgumentsAreFoundUnderTheirWireNames() throws {
        let arguments = try Self.integerArguments()
        let names = Set(arguments.map(\.description))
        for known in ["trash.list older_than_days", "trash.empty older_than_days", "list offset", "list limit", "sync timeout_ms",
                      "mode cap", "select ids[]", "reorder to", "reorder position", "reorder photo", "undo batch",
                      "history limit", "thumbnail photo", "thumbnail ids[]", "photo.info photo", "delete.prepare ids[]",
                      "rate rating", "rate ids[]"] {
            #expect(names.contains(known), "\(known) not found among \(names.sorted())")
        }
        // Each is read under that name, as an integer: a string there is refused naming it.
        for argument in arguments {
            var object = Self.required(argument.command)
            object["cmd"] = argument.command
            let line = try Self.line(object, key: argument.key, literal: argument.isArray ? "[\"x\"]" : "\"x\"")
            guard case .failure(let failure) = Wire.decodeRequest(Data(line.utf8), known: CommandTable.known) else {
                Issue.record("\(line) was taken")
                continue
            }
            #expect(failure.error.argument?.hasPrefix(argument.key) == true, "\(line) -> \(failure.error)")
        }
    }

    @Test func everyIntegerArgumentAtItsExtremesIsAnsweredAndTheDaemonLives() throws {
        let daemon = Daemon()
        for n in 1...3 { Files.write(daemon.root() + "/IMG_000\(n).JPG") }
        try daemon.start()
        let client = try daemon.client()
        var id = 1000
        /// Sends `text`, and checks that its answer comes (with its id when the id
        /// could be read) and that the daemon still runs.
        func answered(_ text: String, id expected: Int64?) throws -> [String: Any] {
            try client.sendLine(text)
            let answer: [String: Any]
            do {
                // (Events come too once `subscribe` was fuzzed: its answer subscribes.)
                var read = try client.readObject(timeout: 30)
                while let event = read, event["event"] != nil { read = try client.readObject(timeout: 30) }
                guard let read else { throw HarnessError("no answer within 30 s") }
                answer = read
            } catch {
                let gone = (try? eventually(timeout: 2, "the daemon to exit") { daemon.process?.isRunning != true }) != nil
                throw HarnessError("\(text): \(error); the daemon \(gone ? "is gone" : "still runs")")
            }
            #expect(answer["ok"] is Bool, "\(text) -> \(answer)")
            if answer["ok"] as? Bool == false {
                #expect((answer["error"] as? [String: Any])?["code"] is String, "\(text) -> \(answer)")
            }
            #expect((answer["id"] as? NSNumber)?.int64Value == expected, "\(text) -> \(answer)")
            #expect(daemon.process?.isRunning == true, "\(text) killed the daemon")
            return answer
        }
        func setUp() throws {
            _ = try client.result(["cmd": "view", "root": "pics", "sort": "custom"])
            _ = try client.result(["cmd": "mode", "mode": "select"])
        }

        let arguments = try Self.integerArguments()
        for argument in arguments {
            try setUp()
            var object = Self.required(argument.command)
            object["cmd"] = argument.command
            for literal in Self.extremes {
                id += 1
                object["id"] = id
                let text = try Self.line(object, key: argument.key, literal: argument.isArray ? "[\(literal)]" : literal)
                _ = try answered(text, id: Int64(id))
            }
        }

        // Positions typed as text reach the same numbers.
        for name in ["select", "deselect", "toggle"] {
            try setUp()
            for text in Self.positionTexts {
                id += 1
                let line = String(decoding: try JSONSerialization.data(withJSONObject: ["id": id, "cmd": name, "positions": text]),
                                  as: UTF8.self)
                _ = try answered(line, id: Int64(id))
            }
        }

        // The request's own id, on every command: an integer comes back as it was
        // sent, anything else is refused with no id.
        for name in CommandTable.known.names {
            try setUp()
            var object = Self.required(name)
            object["cmd"] = name
            for literal in Self.extremes {
                let value = Int64(literal)
                let answer = try answered(try Self.line(object, key: "id", literal: literal), id: value)
                if value == nil {
                    #expect((answer["error"] as? [String: Any])?["argument"] as? String == "id", "\(literal) -> \(answer)")
                }
            }
        }

        #expect(try daemon.client().result(["cmd": "hello"])["server"] as? String == "curatord")
        #expect(try client.result(["cmd": "status"])["photos"] as? Int == 3)
        #expect(daemon.process?.isRunning == true)
    }
}
