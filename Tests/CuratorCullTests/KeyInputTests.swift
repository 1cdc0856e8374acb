// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct KeyInputTests {
    static func drain(_ input: inout KeyInput) -> [Key] {
        var keys: [Key] = []
        while let key = input.next() { keys.append(key) }
        return keys
    }

    @Test func keysWaitInTheOrderTyped() {
        var input = KeyInput()
        let interrupted = input.feed(Array("v  d".utf8))
        #expect(!interrupted)
        #expect(!input.isEmpty)
        let keys = Self.drain(&input)
        #expect(keys == [.character("v"), .space, .space, .character("d")])
        #expect(input.isEmpty)
    }

    @Test func ctrlCIsToldAtOnce() {
        var input = KeyInput()
        let interrupted = input.feed([UInt8(ascii: "j"), 0x03])
        #expect(interrupted)
        let keys = Self.drain(&input)
        #expect(keys == [.character("j"), .control("c")])
    }

    @Test func aHeldEscapeIsEscapeOnceNothingFollows() {
        var input = KeyInput()
        _ = input.feed([0x1B])
        #expect(input.isHolding)
        #expect(input.isEmpty)
        input.flushHeld()
        #expect(!input.isHolding)
        let keys = Self.drain(&input)
        #expect(keys == [.escape])
    }

    @Test func theTerminalsAnswerIsNotAKey() {
        var input = KeyInput()
        let answer = input.separateAnswer(Array("j\u{1B}[?63;4c".utf8) + [UInt8(ascii: "k")])
        #expect(answer == Array("\u{1B}[?63;4c".utf8))
        let typed = Self.drain(&input)
        #expect(typed == [.character("j"), .character("k")])
        // No answer came: what was typed is still kept.
        let none = input.separateAnswer(Array("G".utf8))
        #expect(none == nil)
        let later = Self.drain(&input)
        #expect(later == [.character("G")])
    }
}
