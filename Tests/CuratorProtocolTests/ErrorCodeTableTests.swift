// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// The error codes docs/PROTOCOL.md's table lists against those `ErrorCode` declares:
/// a code a client is told of is one the daemon can answer, and the other way round
/// (issue 56: `no_such_session` was in the table, and nothing ever answered it).
@Suite struct ErrorCodeTableTests {
    static let packageRoot = #filePath.components(separatedBy: "/Tests/")[0]

    /// The codes of the first column of the table under "## Error codes".
    static func documented() throws -> [String] {
        let text = try String(contentsOfFile: packageRoot + "/docs/PROTOCOL.md", encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Error codes\n").dropFirst().first)
        var codes: [String] = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst().prefix { $0 != "|" }
            codes += cell.split(separator: "/").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
        }
        return codes
    }

    /// The codes `ErrorCode` declares: each `ErrorCode("...")` of its file.
    static func declared() throws -> [String] {
        let text = try String(contentsOfFile: packageRoot + "/Sources/CuratorProtocol/ErrorCode.swift", encoding: .utf8)
        return text.components(separatedBy: "ErrorCode(\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    @Test func theTableListsExactlyTheCodesTheProtocolDeclares() throws {
        let documented = try Self.documented()
        let declared = try Self.declared()
        #expect(documented.count >= 25 && declared.count >= 25, "\(documented) \(declared)")
        #expect(documented.count == Set(documented).count, "a code listed twice: \(documented)")
        #expect(Set(declared).subtracting(documented).isEmpty, "declared, not in the table: \(Set(declared).subtracting(documented).sorted())")
        #expect(Set(documented).subtracting(declared).isEmpty, "in the table, not declared: \(Set(documented).subtracting(declared).sorted())")
    }
}
