// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem
import Testing

@Suite struct ExclusionsTests {
    @Test(arguments: [".git", ".Trash", ".Trash-1000", ".Trash-0", ".thumbnails", ".cache", "@eaDir", "#recycle", "."])
    func defaultsSkipTheseDirectories(name: String) {
        #expect(Exclusions.defaults.excludesDirectory(name: ByteString(name)))
    }

    @Test(arguments: ["2024", "05-beach", "eaDir", "@eaDir2", "recycle", "#recycle.old", "Trash", "My .Trash", "#snapshot"])
    func defaultsKeepTheseDirectories(name: String) {
        #expect(!Exclusions.defaults.excludesDirectory(name: ByteString(name)))
    }

    @Test func defaultsSkipHiddenAndAppleDoubleFiles() {
        let exclusions = Exclusions(patterns: [])
        #expect(exclusions.excludesFile(name: ".DS_Store"))
        #expect(exclusions.excludesFile(name: "._IMG_1.JPG"))
        #expect(exclusions.excludesFile(name: ".hidden.jpg"))
        #expect(!exclusions.excludesFile(name: "IMG_1.JPG"))
        #expect(!exclusions.excludesFile(name: "Thumbs.db"), "not hidden; it is simply no photo type")
        #expect(!exclusions.excludesFile(name: "_IMG_1.JPG"))
        #expect(!exclusions.excludesFile(name: "@eaDir"), "@eaDir is a directory default only")
    }

    @Test func withoutDefaultsOnlyPatternsAndAppleDoubleCount() {
        let exclusions = Exclusions(patterns: ["*.tmp"], includeDefaults: false)
        #expect(!exclusions.excludesDirectory(name: ".git"))
        #expect(!exclusions.excludesDirectory(name: "@eaDir"))
        #expect(!exclusions.excludesDirectory(name: "#recycle"))
        #expect(!exclusions.excludesFile(name: ".hidden.jpg"))
        #expect(exclusions.excludesFile(name: "._IMG_1.JPG"), "AppleDouble files are never photos")
        #expect(exclusions.excludesFile(name: "upload.tmp"))
        #expect(exclusions.excludesDirectory(name: "work.tmp"))
        // Trash folders never come back as photos, whatever the defaults say.
        for trash: ByteString in [".recycle", ".Trash", ".Trash-1000"] {
            #expect(exclusions.excludesDirectory(name: trash), "\(trash)")
        }
        #expect(!exclusions.excludesDirectory(name: ".Trashy"))
    }

    @Test func configuredPatternsApplyToDirectoriesAndFiles() {
        let exclusions = Exclusions(patterns: ["tmp*", "*.bak", "[Cc]ache", "Backup ?"])
        #expect(exclusions.excludesDirectory(name: "tmp-2024"))
        #expect(exclusions.excludesDirectory(name: "Cache"))
        #expect(exclusions.excludesDirectory(name: "cache"))
        #expect(exclusions.excludesDirectory(name: "Backup 1"))
        #expect(!exclusions.excludesDirectory(name: "Backup 12"))
        #expect(!exclusions.excludesDirectory(name: "Tmp"), "patterns are case-sensitive")
        #expect(!exclusions.excludesDirectory(name: "CACHE"))
        #expect(exclusions.excludesFile(name: "IMG_1.JPG.bak"))
        #expect(!exclusions.excludesFile(name: "IMG_1.JPG"))
        // The defaults still hold alongside.
        #expect(exclusions.excludesDirectory(name: "@eaDir"))
    }

    @Test func patternsMatchNamesThatAreNotUTF8() {
        let exclusions = Exclusions(patterns: ["caf?", "\u{00E9}t\u{00E9}"])
        #expect(exclusions.excludesDirectory(name: ByteString([0x63, 0x61, 0x66, 0xE9])))  // Latin-1 "café"
        #expect(exclusions.excludesDirectory(name: "été"))
        #expect(!exclusions.excludesDirectory(name: ByteString([0xE9, 0x74, 0xE9])), "Latin-1 été is other bytes")
    }

    @Test func validationRejectsPatternsThatCanNeverMatchAName() {
        #expect(throws: Never.self) { try Exclusions.validate(patterns: ["*.tmp", "@eaDir", "[abc"]) }
        #expect(throws: InvalidExclusionPattern.self) { try Exclusions.validate(patterns: ["ok", "2024/tmp"]) }
        #expect(throws: InvalidExclusionPattern.self) { try Exclusions.validate(patterns: [""]) }
        do {
            try Exclusions.validate(patterns: ["a/b"])
            Issue.record("a pattern with / was accepted")
        } catch {
            #expect(error.pattern == "a/b")
            #expect(error.description.contains("'a/b'"))
        }
    }
}
