// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

@Suite("PhotoPath: a photo's place below its root, checked in one pass")
struct PhotoPathTests {
    /// What a path must be, said the long way: split at every slash, no component
    /// empty, "." or "..", no NUL byte.
    private static func expected(_ relative: [UInt8]) -> (directories: [ByteString], name: ByteString)? {
        let parts = relative.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { ByteString(Array($0)) }
        guard !relative.isEmpty, !relative.contains(0),
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }), let last = parts.last
        else { return nil }
        return (Array(parts.dropLast()), last)
    }

    @Test func acceptsExactlyThePathsThatStayBelowTheRoot() {
        let cases: [[UInt8]] = ["", "/", "a", "/a", "a/", "a//b", "./a", "a/.", "a/./b", "a/../b", "..", "...", ".a", "a/.b",
                                "a/..b", "..a/b", "a/b/c.jpg", "2024/Holiday/IMG_0001.JPG", "x/y/z/", "a\u{0}b", "a/\u{0}"]
            .map { Array($0.utf8) } + [[0xFF, 0x2F, 0xFE], [0x2E, 0x2E, 0x2F, 0x61]]
        for bytes in cases {
            let path = PhotoPath(root: "/srv/photos", relative: ByteString(bytes))
            let want = Self.expected(bytes)
            #expect((path == nil) == (want == nil), "\(bytes)")
            if let path, let want {
                #expect(path.name == want.name && path.directories == want.directories, "\(bytes)")
                #expect(path.absolute == ByteString("/srv/photos").appending(ByteString(bytes)))
            }
        }
    }

    @Test func everyShortPathOfTheTrickyBytesAgreesWithTheLongWay() {
        // Every string of up to 5 bytes over '/', '.', 'a' and NUL: 1 364 paths.
        let alphabet: [UInt8] = [UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "a"), 0]
        var paths: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 0..<5 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + [$0] } }
            paths += frontier
        }
        for bytes in paths {
            let path = PhotoPath(root: "/r", relative: ByteString(bytes))
            let want = Self.expected(bytes)
            #expect((path == nil) == (want == nil), "\(bytes)")
            if let path, let want { #expect(path.name == want.name && path.directories == want.directories, "\(bytes)") }
        }
    }
}

@Suite("ExpectedMoves: the moves a running batch makes itself")
struct ExpectedMovesTests {
    private func entry(_ name: String) -> WatchTable.Entry { WatchTable.Entry(rootID: 1, path: ByteString(name)) }

    @Test func aMoveIsClaimedOnceAndTheBatchHearsWhichWere() {
        let moves = ExpectedMoves()
        #expect(!moves.isExpecting)
        moves.expect([entry("a.jpg"), entry("b.jpg"), entry("c.jpg")])
        #expect(moves.isExpecting)
        #expect(moves.claim(entry("b.jpg")))
        #expect(!moves.claim(entry("b.jpg")), "claimed once")
        #expect(!moves.claim(entry("other.jpg")), "not the batch's")
        #expect(moves.claim(entry("a.jpg")) && moves.claim(entry("c.jpg")))
        #expect(!moves.isExpecting, "every move made")
        #expect(moves.end([entry("a.jpg"), entry("b.jpg"), entry("c.jpg")]) == [0, 1, 2])
        #expect(!moves.claim(entry("a.jpg")), "forgotten at the end")
    }

    @Test func anotherBatchsMovesStayWhenOneEnds() {
        let moves = ExpectedMoves()
        moves.expect([entry("a.jpg"), entry("b.jpg")])
        moves.expect([WatchTable.Entry(rootID: 2, path: "x.jpg")])
        #expect(moves.claim(entry("b.jpg")))
        #expect(moves.end([entry("a.jpg"), entry("b.jpg")]) == [1], "a.jpg was never claimed: not handed back as skipped")
        #expect(moves.isExpecting, "the other batch still moves x.jpg")
        #expect(moves.claim(WatchTable.Entry(rootID: 2, path: "x.jpg")))
        #expect(!moves.isExpecting)
    }
}
