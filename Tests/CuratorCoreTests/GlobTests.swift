// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem
import Testing

@Suite struct GlobTests {
    func match(_ pattern: String, _ name: String, _ options: Glob.Options = []) -> Bool {
        Glob(pattern: pattern, options: options).matches(ByteString(name))
    }

    @Test func literalsAndStars() {
        #expect(match("IMG_0001.JPG", "IMG_0001.JPG"))
        #expect(!match("IMG_0001.JPG", "IMG_0001.JPGX"))
        #expect(!match("IMG_0001.JPG", "XIMG_0001.JPG"))
        #expect(match("*.CR2", "IMG_1.CR2"))
        #expect(match("*.CR2", ".CR2"))
        #expect(!match("*.CR2", "IMG_1.CR2.xmp"))
        #expect(match("IMG_*_edit*", "IMG_1_edit"))
        #expect(match("IMG_*_edit*", "IMG_1_2_edit_3"))
        #expect(!match("IMG_*_edit*", "IMG_1edit"))
        #expect(match("*", ""))
        #expect(match("**", "anything at all"))
        #expect(match("a*b*c", "abc"))
        #expect(match("a*b*c", "aXbYbZc"))
        #expect(!match("a*b*c", "aXbYcZ"))
    }

    @Test func theEmptyPatternMatchesOnlyTheEmptyName() {
        #expect(match("", ""))
        #expect(!match("", "a"))
    }

    @Test func questionMarkIsOneCharacterNotOneByte() {
        #expect(match("IMG_????.JPG", "IMG_0001.JPG"))
        #expect(!match("IMG_????.JPG", "IMG_001.JPG"))
        #expect(match("caf?.jpg", "café.jpg"), "é is two bytes in UTF-8 but one character")
        #expect(!match("caf??.jpg", "café.jpg"))
        #expect(match("?", "日"))
    }

    @Test func bytesThatAreNotUTF8AreMatchedOneByOne() {
        let latin1 = ByteString([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])  // "caf\xE9.jpg"
        #expect(Glob(pattern: "caf?.jpg").matches(latin1))
        #expect(Glob(pattern: "*.jpg").matches(latin1))
        #expect(Glob(pattern: "caf*").matches(latin1))
        #expect(!Glob(pattern: "café.jpg").matches(latin1), "U+00E9 is not the byte E9")
        #expect(!Glob(pattern: "caf[é].jpg").matches(latin1))
        #expect(Glob(pattern: "caf[!é].jpg").matches(latin1))
        // A truncated UTF-8 sequence: two invalid bytes, two `?`.
        let broken = ByteString([0x61, 0xE6, 0x97, 0x62])
        #expect(Glob(pattern: "a??b").matches(broken))
        #expect(!Glob(pattern: "a?b").matches(broken))
    }

    @Test func bracketExpressions() {
        #expect(match("IMG_[0-9][0-9].JPG", "IMG_42.JPG"))
        #expect(!match("IMG_[0-9][0-9].JPG", "IMG_4x.JPG"))
        #expect(match("[abc]", "b"))
        #expect(!match("[abc]", "d"))
        #expect(match("[!abc]", "d"))
        #expect(!match("[!abc]", "a"))
        #expect(match("[^a-c]x", "dx"))
        #expect(!match("[^a-c]x", "bx"))
        #expect(match("[a-cx-z]", "y"))
        #expect(match("[]]", "]"), "a ] first in the set is a member")
        #expect(match("[!]]", "a"))
        #expect(!match("[!]]", "]"))
        #expect(match("[a-]", "-"), "a - before the closing ] is a member")
        #expect(match("[-a]", "-"))
        #expect(!match("[z-a]", "m"), "a reversed range is empty")
        #expect(match("[é]", "é"))
        #expect(match("[à-ü]", "é"))
        #expect(match("[*?]", "*"))
        #expect(!match("[*?]", "x"))
        #expect(!match("[abc]", ""))
    }

    @Test func anUnclosedBracketIsLiteral() {
        #expect(match("[abc", "[abc"))
        #expect(!match("[abc", "a"))
        #expect(match("IMG[*", "IMG[1"))
    }

    @Test func backslashEscapes() {
        #expect(match("\\*", "*"))
        #expect(!match("\\*", "a"))
        #expect(match("what\\?.jpg", "what?.jpg"))
        #expect(!match("what\\?.jpg", "whatX.jpg"))
        #expect(match("\\[abc]", "[abc]"))
        #expect(match("[\\]x]", "]"))
        #expect(match("[a\\-z]", "-"))
        #expect(!match("[a\\-z]", "m"), "an escaped - is not a range")
        #expect(match("end\\", "end\\"), "a trailing backslash stands for itself")
    }

    @Test func caseSensitiveByDefaultWithAnInsensitiveOption() {
        #expect(match("*.CR2", "IMG.CR2"))
        #expect(!match("*.CR2", "img.cr2"))
        #expect(match("*.CR2", "img.cr2", .caseInsensitive))
        #expect(match("*.cr2", "IMG.CR2", .caseInsensitive))
        #expect(match("[A-Z]*", "img", .caseInsensitive))
        #expect(match("[a-z]*", "IMG", .caseInsensitive))
        #expect(!match("[!a-z]*", "IMG", .caseInsensitive))
        #expect(match("ÉTÉ*", "été à Nice.jpg", .caseInsensitive))
        #expect(!match("ÉTÉ*", "été à Nice.jpg"))
    }

    @Test func pathnameStarsStopAtSlashes() {
        let path: Glob.Options = .pathname
        #expect(!match("*.jpg", "2024/a.jpg", path))
        #expect(match("*.jpg", "2024/a.jpg"), "without the option * crosses /")
        #expect(match("*/*.jpg", "2024/a.jpg", path))
        #expect(!match("*/*.jpg", "2024/05/a.jpg", path))
        #expect(!match("2024?05", "2024/05", path))
        #expect(!match("2024[/]05", "2024/05", path))
        #expect(match("2024/*", "2024/a.jpg", path))
        #expect(!match("2024/*", "2024/05/a.jpg", path))
    }

    @Test func globstarCrossesDirectories() {
        let path: Glob.Options = .pathname
        #expect(match("**/*.jpg", "a.jpg", path), "**/ also matches no directory")
        #expect(match("**/*.jpg", "2024/a.jpg", path))
        #expect(match("**/*.jpg", "2024/05-beach/a.jpg", path))
        #expect(!match("**/*.jpg", "2024/05-beach/a.png", path))
        #expect(match("2024/**", "2024/05/a.jpg", path))
        #expect(!match("2024/**", "2023/05/a.jpg", path))
        #expect(match("a/**/b", "a/b", path))
        #expect(match("a/**/b", "a/x/b", path))
        #expect(match("a/**/b", "a/x/y/b", path))
        #expect(!match("a/**/b", "a/x/y/c", path))
        #expect(match("2024/**.JPG", "2024/05/IMG_1.JPG", path))
        #expect(match("**/@eaDir/**", "2024/@eaDir/x/y.jpg", path))
        #expect(!match("**/@eaDir/**", "2024/eaDir/x/y.jpg", path))
    }

    @Test func manyStarsStayFast() {
        // A backtracking matcher takes exponential time here; this one is linear in each star.
        let name = ByteString(String(repeating: "a", count: 2000))
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(!Glob(pattern: String(repeating: "*a", count: 20) + "*b").matches(name))
            #expect(!Glob(pattern: String(repeating: "**/", count: 10) + "b", options: .pathname).matches(name))
        }
        #expect(elapsed < .seconds(5))
    }

    @Test func literalPatternsAreRecognised() {
        #expect(Glob(pattern: "@eaDir").isLiteral)
        #expect(Glob(pattern: "a\\*").isLiteral)
        #expect(!Glob(pattern: "*.jpg").isLiteral)
        #expect(!Glob(pattern: "[ab]").isLiteral)
    }
}
