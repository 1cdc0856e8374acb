// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Foundation
import Testing

/// config/curatord.json5 is "a complete example, every option": every key the
/// loader knows is shown in it, at the top level or in a root (issue 56: it had no
/// `thumbnails`, which a client meets as `thumbnails_off`).
@Suite struct ConfigExampleTests {
    static let example = #filePath.components(separatedBy: "/Tests/")[0] + "/config/curatord.json5"

    @Test func theExampleShowsEveryKeyTheLoaderKnows() throws {
        let lines = try String(contentsOfFile: Self.example, encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let shown = Set(lines.filter { !$0.hasPrefix("//") }.compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return String(line[..<colon])
        })
        let known = ConfigLoader.topLevelKeys.union(ConfigLoader.rootKeys)
        #expect(known.subtracting(shown).isEmpty, "keys the example does not show: \(known.subtracting(shown).sorted())")
    }
}
