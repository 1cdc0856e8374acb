// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// docs/ARCHITECTURE.md is the map a newcomer follows: every path it names must
/// exist, every test suite it names must be one, and it stays a page one reads
/// in minutes rather than a second copy of the code.
@Suite struct ArchitectureMapTests {
    static let page = Command.packageRoot + "/docs/ARCHITECTURE.md"

    /// The backquoted words of the page (`like this`).
    static func quoted() throws -> [String] {
        let text = try String(contentsOfFile: page, encoding: .utf8)
        var words: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "`") else { break }
            words.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return words
    }

    @Test func everyPathItNamesExists() throws {
        let roots = ["Sources/", "Tests/", "docs/", "bench/", "scripts/", "systemd/", "config/", "web/"]
        let paths = try Self.quoted().filter { word in roots.contains { word.hasPrefix($0) } && !word.contains(" ") }
        #expect(paths.count >= 40, "the map names too few paths to be a map: \(paths.count)")
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: Command.packageRoot + "/" + path),
                    "docs/ARCHITECTURE.md names \(path), which does not exist")
        }
    }

    @Test func everyTestSuiteItNamesExists() throws {
        let suites = Set(try Self.quoted().filter { $0.hasSuffix("Tests") && !$0.contains("/") })
        #expect(!suites.isEmpty)
        let testsDir = Command.packageRoot + "/Tests"
        let files = FileManager.default.enumerator(atPath: testsDir)?.compactMap { $0 as? String } ?? []
        var declared = Set<String>()
        for file in files where file.hasSuffix(".swift") {
            let text = (try? String(contentsOfFile: testsDir + "/" + file, encoding: .utf8)) ?? ""
            for suite in suites where text.contains("struct \(suite)") || text.contains("class \(suite)") {
                declared.insert(suite)
            }
        }
        #expect(suites.subtracting(declared).isEmpty, "named on the map but no such suite: \(suites.subtracting(declared).sorted())")
    }

    @Test func itStaysAPage() throws {
        let lines = try String(contentsOfFile: Self.page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 220, "docs/ARCHITECTURE.md has \(lines.count) lines; it is a map, not the code again")
    }
}
