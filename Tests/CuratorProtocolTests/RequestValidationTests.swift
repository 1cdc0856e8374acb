// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import Foundation
import Testing

/// Every integer of a request is an integer as written, in range, and not negative
/// where a count or an offset is meant; a refusal names the key as the client wrote it.
struct RequestValidationTests {
    static func decode(_ line: String) -> Result<Request, Wire.RequestFailure> { Wire.decodeRequest(Data(line.utf8), known: CommandTable.known) }

    static func refusal(_ line: String) -> ProtocolError? {
        if case .failure(let failure) = decode(line) { return failure.error }
        return nil
    }

    /// Each integer key of each command, with what else the command needs.
    static let integerKeys: [(cmd: String, key: String, rest: String)] = [
        ("list", "offset", ""), ("list", "limit", ""),
        ("sync", "timeout_ms", ""),
        ("mode", "cap", #","mode":"select""#),
        ("reorder", "position", #","to":1"#), ("reorder", "photo", #","to":1"#), ("reorder", "to", ""),
        ("undo", "batch", ""),
        ("history", "limit", ""),
    ]

    /// What JSONDecoder alone reads as an integer although it is not written as one.
    static let notIntegers = ["1.0", "1e-999", "-0.0", "1e2", "0.1e1", "2.5", "1E400"]

    @Test(arguments: notIntegers)
    func floatsAreRefusedForEveryIntegerKey(_ literal: String) throws {
        for (cmd, key, rest) in Self.integerKeys {
            let error = try #require(Self.refusal(#"{"id":1,"cmd":"\#(cmd)","\#(key)":\#(literal)\#(rest)}"#), "\(cmd) \(key)")
            #expect(error.code == .invalidArgument, "\(cmd) \(key) \(literal)")
            #expect(error.argument == key, "\(cmd) \(key) \(literal)")
            #expect(error.message.contains(key), "\(error.message)")
        }
        for cmd in ["select", "deselect", "toggle", "delete.prepare"] {
            let error = try #require(Self.refusal(#"{"id":1,"cmd":"\#(cmd)","ids":[3,\#(literal)]}"#))
            #expect(error.code == .invalidArgument)
            #expect(error.argument == "ids[1]", "\(cmd) \(literal)")
        }
    }

    @Test func integersAsWrittenAreTaken() throws {
        guard case .success(let list) = Self.decode(#"{"id":-0,"cmd":"list","offset":0,"limit":0}"#),
              let args = list.command as? ListRequest
        else { Issue.record("a plain list was refused"); return }
        #expect(list.id == .number(0))
        #expect(args.offset == 0 && args.limit == 0)
        guard case .success(let select) = Self.decode(#"{"cmd":"select","ids":[1, 9223372036854775807, -4]}"#),
              let selectArgs = select.command as? SelectRequest
        else { Issue.record("a plain select was refused"); return }
        #expect(selectArgs.selector.ids == [1, Int64.max, -4])
        guard case .success(let sync) = Self.decode(#"{"cmd":"sync","timeout_ms":2500}"#), let syncArgs = sync.command as? SyncRequest
        else { Issue.record("a plain sync was refused"); return }
        #expect(syncArgs.timeoutMs == 2500)
    }

    @Test func negativeOffsetsLimitsAndTimeoutsAreRefused() throws {
        for (cmd, key) in [("list", "offset"), ("list", "limit"), ("history", "limit"), ("sync", "timeout_ms")] {
            let error = try #require(Self.refusal(#"{"id":1,"cmd":"\#(cmd)","\#(key)":-1}"#), "\(cmd) \(key)")
            #expect(error.code == .invalidArgument)
            #expect(error.argument == key)
            #expect(error.message == "\(key): must not be negative, not -1")
        }
    }

    @Test func integersOutOfRangeAreRefused() throws {
        for line in [#"{"cmd":"list","offset":9223372036854775808}"#, #"{"cmd":"undo","batch":-9223372036854775809}"#,
                     #"{"cmd":"list","limit":100000000000000000000000}"#] {
            let error = try #require(Self.refusal(line), "\(line)")
            #expect(error.code == .invalidArgument, "\(line): \(error)")
            #expect(error.argument != nil, "\(line): \(error)")
        }
        let element = try #require(Self.refusal(#"{"cmd":"select","ids":[1,99999999999999999999]}"#))
        #expect(element.code == .invalidArgument && element.argument == "ids[1]", "\(element)")
    }

    /// A request's id is an integer or a string; `1e-999` used to come back as 0.
    @Test func requestIDsAreIntegersOrStrings() throws {
        for id in ["1e-999", "-0.0", "1.5", "1.0", "true", "{}", "[1]", "9223372036854775808", "null"] {
            guard case .failure(let failure) = Self.decode(#"{"id":\#(id),"cmd":"hello"}"#) else {
                Issue.record("id \(id) was taken")
                continue
            }
            #expect(failure.id == nil)
            #expect(failure.error.code == .invalidArgument, "id \(id): \(failure.error)")
            #expect(failure.error.argument == "id", "id \(id): \(failure.error)")
        }
        guard case .success(let text) = Self.decode(#"{"id":"1e-999","cmd":"hello"}"#) else { Issue.record("a string id"); return }
        #expect(text.id == .string("1e-999"))
        guard case .success(let number) = Self.decode(#"{"id":-12,"cmd":"hello"}"#) else { Issue.record("an integer id"); return }
        #expect(number.id == .number(-12))
    }

    /// What a command cannot be decoded without.
    static func required(_ cmd: String) -> [String: String] {
        switch cmd {
        case "mode": ["mode": #""select""#]
        case "reorder": ["to": "2"]
        case "delete.confirm": ["token": #""t""#]
        default: [:]
        }
    }

    /// The keys whose `null` says something of its own, as PROTOCOL.md's tables say:
    /// `rate`'s `rating` and `label`, where it clears what the sidecars hold.
    static let nullMeans: [String: Set<String>] = ["rate": ["rating", "label"]]

    /// A known key's `null` is the key left out, for every key of every command (read
    /// off each request type); a key the command needs is refused as when absent.
    @Test func nullIsTheKeyLeftOutUnlessTheCommandNeedsAValue() throws {
        func line(_ cmd: String, _ pairs: [String: String]) -> String {
            (["\"cmd\":\"\(cmd)\""] + pairs.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }).joined(separator: ",")
        }
        var tried = 0
        for cmd in CommandTable.known.names {
            let plain = try Self.decode("{" + line(cmd, Self.required(cmd)) + "}").get()
            let expected = Wire.request(id: nil, command: plain.command)
            let arguments = plain.command
            for key in Self.keys(of: arguments) {
                tried += 1
                var pairs = Self.required(cmd)
                let needed = pairs[key] != nil
                pairs[key] = "null"
                let text = "{" + line(cmd, pairs) + "}"
                switch Self.decode(text) {
                case .success(let request):
                    #expect(!needed, "\(text) was taken")
                    if Self.nullMeans[cmd]?.contains(key) == true {
                        #expect(Wire.request(id: nil, command: request.command) != expected, "\(text) is taken as \(cmd) without \(key)")
                    } else {
                        #expect(Wire.request(id: nil, command: request.command) == expected, "\(text) is not \(cmd) without \(key)")
                    }
                case .failure(let failure):
                    #expect(needed, "\(text): \(failure.error)")
                    #expect(failure.error.code == .invalidArgument && failure.error.argument == key, "\(text): \(failure.error)")
                }
            }
        }
        #expect(tried > 30)
        // An array's element is not a key; a null `cmd` is none.
        #expect(Self.refusal(#"{"cmd":"select","ids":[1,null]}"#)?.argument == "ids[1]")
        let noCommand = try #require(Self.refusal(#"{"id":3,"cmd":null}"#))
        #expect(noCommand.code == .badRequest && noCommand.argument == "cmd", "\(noCommand)")
    }

    /// The wire keys of a request type's fields (a view's and a selector's sit beside
    /// the command's own; a filter's are under `filter`).
    static func keys(of value: Any) -> [String] {
        var keys: [String] = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            guard label == "view" || label == "selector" else {
                keys.append(label.reduce(into: "") { $0 += $1.isUppercase ? "_" + $1.lowercased() : String($1) })
                continue
            }
            let mirror = Mirror(reflecting: child.value)
            if mirror.displayStyle != .optional {
                keys += Self.keys(of: child.value)
            } else if let some = mirror.children.first {
                keys += Self.keys(of: some.value)
            }
        }
        return keys
    }

    /// Errors name keys as the client wrote them, not as Swift spells them.
    @Test func refusalsNameWireKeys() throws {
        #expect(Self.refusal(#"{"cmd":"sync","timeout_ms":"soon"}"#)?.argument == "timeout_ms")
        #expect(Self.refusal(#"{"cmd":"list","folder_raw":5}"#)?.argument == "folder_raw")
        #expect(Self.refusal(#"{"cmd":"list","filter":{"glob":3}}"#)?.argument == "filter.glob")
        // An escaped key is the same key.
        #expect(Self.refusal(#"{"cmd":"list","\u006fffset":1.5}"#)?.argument == "offset")
    }

    /// Keys a command does not know are ignored, whatever they hold.
    @Test func unknownKeysMayHoldAnyNumber() {
        for line in [#"{"cmd":"status","x":1.5}"#, #"{"cmd":"list","extra":[1e-999,{"offset":-0.0}]}"#,
                     #"{"cmd":"list","filter":{"glob":"*.jpg","weight":0.5}}"#] {
            guard case .success = Self.decode(line) else {
                Issue.record("\(line) was refused")
                continue
            }
        }
    }

    /// The scan of number literals never trips on what is not JSON, however deep.
    @Test func theLiteralScanIsLenient() {
        let lines = ["", "{", "[[[[", "{\"a\":", "{\"a\":1.5", "{\"a\":\"\\u12\"}", String(repeating: "[", count: 100_000) + "1.5",
                     "{\"a\":[1,2.5,{\"b\":-0.0}],\"c\":\"x\\\"y\",\"d\":1e3}"]
        for line in lines {
            let found = Array(line.utf8).withUnsafeBytes { NumberLiterals(scanning: $0) }
            if line.hasPrefix("{\"a\":[1") {
                #expect(found.nonIntegers == ["a[1]": "2.5", "a[2].b": "-0.0", "d": "1e3"])
            }
        }
    }
}
