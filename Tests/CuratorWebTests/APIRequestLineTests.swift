// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
@testable import CuratorWeb
import Testing

@Suite struct APIRequestLineTests {
    static func line(_ command: String, _ body: String, id: Int64 = 7) throws(GatewayError) -> String {
        String(decoding: try APIRequestLine.make(command: command, body: Array(body.utf8), id: id), as: UTF8.self)
    }

    @Test func theBodysKeysAreTheArgumentsAndTheCommandAndIdAreAdded() throws {
        #expect(try Self.line("select", #"{"positions":"1 2","session":"web"}"#)
            == #"{"positions":"1 2","session":"web","cmd":"select","id":7}"# + "\n")
        #expect(try Self.line("status", "") == #"{"cmd":"status","id":7}"# + "\n")
        #expect(try Self.line("status", " { } ") == #"{ "cmd":"status","id":7}"# + "\n")
    }

    @Test func lineBreaksBetweenTokensKeepTheRequestOneLine() throws {
        let made = try Self.line("list", "{\r\n \"limit\": 2\n}\n")
        #expect(made.filter { $0 == "\n" }.count == 1)
        #expect(made.hasSuffix("\"id\":7}\n"))
    }

    @Test func integersAreLeftAsWrittenForTheDaemonToJudge() throws {
        #expect(try Self.line("list", #"{"limit":1.0}"#).contains(#""limit":1.0"#))
    }

    @Test func aBodyThatIsNotOneObjectIsRefused() {
        for body in ["[1]", "\"x\"", "{", #"{"a":1} {"b":2}"#, #"{"a":1},"cmd":"reload","x":{}"#, "nul"] {
            #expect(throws: GatewayError.self, "\(body)") { try Self.line("status", body) }
        }
    }

    @Test func cmdOrIdInTheBodyIsRefusedHoweverSpelled() {
        for body in [#"{"cmd":"reload"}"#, #"{"id":1}"#, #"{"c\u006dd":"reload"}"#, #"{"a":1,"id":"x"}"#] {
            #expect(throws: GatewayError.self, "\(body)") { try Self.line("status", body) }
        }
    }

    @Test func aPathNamesACommandOnlyInTheProtocolsSpelling() {
        #expect(APIRequestLine.command(inPath: "/api/v1/select") == "select")
        #expect(APIRequestLine.command(inPath: "/api/v1/delete.prepare") == "delete.prepare")
        #expect(APIRequestLine.command(inPath: "/api/v1/") == nil)
        #expect(APIRequestLine.command(inPath: "/api/v1/a/b") == nil)
        #expect(APIRequestLine.command(inPath: "/api/v1/Select") == nil)
        #expect(APIRequestLine.command(inPath: "/api/v1/x\"y") == nil)
        #expect(APIRequestLine.command(inPath: "/api/v2/select") == nil)
    }
}

@Suite struct ErrorStatusTests {
    @Test func eachErrorHasTheStatusDocsSay() {
        #expect(ErrorStatus.status(for: .invalidArgument) == 400)
        #expect(ErrorStatus.status(for: .permissionDenied) == 403)
        #expect(ErrorStatus.status(for: .noSuchPhoto) == 404)
        #expect(ErrorStatus.status(for: .unknownCommand) == 404)
        #expect(ErrorStatus.status(for: .notInSelectMode) == 409)
        #expect(ErrorStatus.status(for: .requestTooLarge) == 413)
        #expect(ErrorStatus.status(for: .tooManyConnections) == 429)
        #expect(ErrorStatus.status(for: .shuttingDown) == 503)
        #expect(ErrorStatus.status(for: .internalError) == 500)
        #expect(ErrorStatus.status(for: ErrorCode("a_code_from_later")) == 500)
    }
}
