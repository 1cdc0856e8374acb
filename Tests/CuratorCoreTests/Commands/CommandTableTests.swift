// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import Foundation
import Testing

/// The table of commands against the protocol's list of names and its document:
/// a command cannot be added, renamed or dropped in one place only, and each
/// name leads to the handler of that command.
@Suite struct CommandTableTests {
    static let protocolDocument = #filePath.components(separatedBy: "/Tests/")[0] + "/docs/PROTOCOL.md"

    /// The commands docs/PROTOCOL.md documents: its `###` headings between
    /// "## Commands" and "## Error codes" ("### select, deselect, toggle" documents three).
    static func documentedCommands() throws -> [String] {
        let text = try String(contentsOfFile: protocolDocument, encoding: .utf8)
        var inCommands = false
        var names: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                if line == "## Commands" { inCommands = true }
                if line == "## Error codes" { inCommands = false }
                continue
            }
            guard inCommands, line.hasPrefix("### ") else { continue }
            names += line.dropFirst(4).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return names
    }

    @Test func everyCommandIsInTheTableAndDocumentedUnderItsName() throws {
        let table = CommandTable.known.names
        let documented = try Self.documentedCommands()
        #expect(documented.count == Set(documented).count, "a command documented twice: \(documented)")
        #expect(table.count == Set(table).count, "a name in the table twice: \(table)")
        #expect(Set(table).subtracting(documented).isEmpty, "in the table, not in docs/PROTOCOL.md: \(Set(table).subtracting(documented).sorted())")
        #expect(Set(documented).subtracting(table).isEmpty, "in docs/PROTOCOL.md, not in the table: \(Set(documented).subtracting(table).sorted())")
        #expect(documented == table, "the table lists the commands in the order docs/PROTOCOL.md does")
    }

    /// A request line of each command, with what it must carry.
    static func line(_ name: String) -> String {
        switch name {
        case "view": #"{"cmd":"view","root":"pics"}"#
        case "mode": #"{"cmd":"mode","mode":"select"}"#
        case "select", "deselect", "toggle": #"{"cmd":"\#(name)","positions":"1"}"#
        case "reorder": #"{"cmd":"reorder","position":1,"to":2}"#
        case "delete.confirm": #"{"cmd":"delete.confirm","token":"t"}"#
        case "web.passwd": #"{"cmd":"web.passwd","password":"p"}"#
        case "web.login": #"{"cmd":"web.login","user":"u","password":"p"}"#
        case "web.attach", "web.logout": #"{"cmd":"\#(name)","token":"t"}"#
        default: #"{"cmd":"\#(name)"}"#
        }
    }

    /// Each name decodes to its own request type, which a client encodes back under
    /// that name, and whose handler is the table's only one to take it.
    @Test func eachNameLeadsToTheHandlerOfThatCommandAlone() throws {
        for name in CommandTable.known.names {
            let request = try Wire.decodeRequest(Data(Self.line(name).utf8), known: CommandTable.known).get()
            #expect(request.name == name)
            let encoded = try #require(try JSONSerialization.jsonObject(with: Wire.request(id: nil, command: request.command)) as? [String: Any])
            #expect(encoded["cmd"] as? String == name)
            let handler = try #require(CommandTable.byName[name], "\(name) has no handler")
            let takesItsOwn = Self.takes(handler, request.command)
            #expect(takesItsOwn, "the handler of \(name) does not take its arguments")
            for otherHandler in CommandTable.handlers where otherHandler.requestType.name != name {
                let takesAnothers = Self.takes(otherHandler, request.command)
                #expect(!takesAnothers, "the handler of \(otherHandler.requestType.name) takes \(name)'s arguments")
            }
        }
    }

    static func takes<H: CommandHandler>(_ handler: H.Type, _ command: any ProtocolRequest) -> Bool { command is H.Arguments }
}
