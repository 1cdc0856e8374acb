// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Foundation
import Testing

/// A configuration that does not parse is reported with its line and column.
struct JSON5LocatorTests {
    static func problem(_ text: String) -> JSON5Locator.Problem? { JSON5Locator.firstProblem(in: Array(text.utf8)) }

    @Test(arguments: [
        ("{ roots: [ }", 1, 12, "expected a value"),
        ("{\n  roots: [\n    {name: \"a\" path: \"/tmp\"},\n  ]\n}\n", 3, 16, "expected ',' or '}'"),
        ("{\n  socket: \"/run/x.sock\",\n  log_level: info,\n}", 3, 14, "expected a value"),
        ("{\n  roots: [{name: 'a', path: '/tmp'}],,\n}", 2, 38, "expected a key"),
        ("{\n  a: \"never closed\n}", 2, 19, "may not go on to the next line"),
        ("{ a: 1 /* open comment", 1, 8, "never closed"),
        ("{ a: 0x }", 1, 8, "hexadecimal"),
        ("{ a: 1e }", 1, 8, "exponent"),
        ("{ a: 1 } x", 1, 10, "after the end"),
        ("{ \"é\": [1, 2 3] }", 1, 14, "expected ',' or ']'"),
        ("", 1, 1, "the text ends"),
    ] as [(String, Int, Int, String)])
    func saysWhereTheTextGoesWrong(_ text: String, _ line: Int, _ column: Int, _ says: String) throws {
        let found = try #require(Self.problem(text), "no problem found in \(text.debugDescription)")
        #expect(found.line == line && found.column == column, "\(found)")
        #expect(found.message.contains(says), "\(found)")
    }

    /// No false alarm on what the decoder accepts: the shipped example and JSON5's extras.
    @Test func acceptsValidJSON5() throws {
        let example = try String(contentsOfFile: #filePath.components(separatedBy: "/Tests/")[0] + "/config/curatord.json5", encoding: .utf8)
        #expect(Self.problem(example) == nil)
        let extras = """
        // comment
        { unquoted: 'single', "double": "a\\"b", trailing: [1, 2,], hex: 0x1F, half: .5, plus: +1,
          inf: -Infinity, nan: NaN, exp: 1e-3, nested: {a: {b: [null, true, false]}}, $id_1: "x",
          multi: "line \\
        continued", /* block */ last: 1,
        }
        """
        #expect(Self.problem(extras) == nil)
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        #expect(throws: Never.self) { _ = try decoder.decode(JSONValue.self, from: Data(extras.utf8)) }
    }
}
