// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import CuratorProtocol
import Testing

@Suite struct KeyMapTests {
    static func grid(_ key: Key) -> CullAction { KeyMap.action(for: key, in: .none) }
    static func detail(_ key: Key) -> CullAction { KeyMap.action(for: key, in: .detail) }

    @Test func theGridsMovesAndCommands() {
        #expect(Self.grid(.character("h")) == .step(-1))
        #expect(Self.grid(.right) == .step(1))
        #expect(Self.grid(.character("k")) == .vertical(-1))
        #expect(Self.grid(.down) == .vertical(1))
        #expect(Self.grid(.control("d")) == .page(1))
        #expect(Self.grid(.pageUp) == .page(-1))
        #expect(Self.grid(.character("g")) == .first)
        #expect(Self.grid(.character("G")) == .last)
        #expect(Self.grid(.enter) == .openDetail)
        #expect(Self.grid(.space) == .toggle)
        #expect(Self.grid(.character("d")) == .delete)
        #expect(Self.grid(.control("z")) == .undo)
        #expect(Self.grid(.character("o")) == .go(.openCursorFolder))
        #expect(Self.grid(.character("[")) == .go(.sibling(-1)))
        #expect(Self.grid(.backspace) == .go(.widen))
        #expect(Self.grid(.character("=")) == .zoom(1))
        #expect(Self.grid(.character("_")) == .zoom(-1))
        #expect(Self.grid(.character("q")) == .quit)
        #expect(Self.grid(.escape) == .escapeHint)
        #expect(Self.grid(.tab) == .nothing)
    }

    @Test func lightroomsKeysMarkOnTheGridAndOnOnePhotoLarge() {
        for map in [Self.grid, Self.detail] {
            #expect(map(.character("P")) == .mark(.flag("pick")))
            #expect(map(.character("x")) == .mark(.flag("reject")))
            #expect(map(.character("U")) == .mark(.flag("none")))
            #expect(map(.character("0")) == .mark(.rating(0)))
            #expect(map(.character("5")) == .mark(.rating(5)))
            #expect(map(.character("6")) == .mark(.label("red")))
            #expect(map(.character("9")) == .mark(.label("blue")))
            #expect(map(.character("a")) == .toggleAdvance)
            #expect(map(.character("٣")) == .nothing)  // a digit, not one of the keys
        }
    }

    @Test func theDetailViewFlipsAndCloses() {
        #expect(Self.detail(.up) == .flip(-1))
        #expect(Self.detail(.character("l")) == .flip(1))
        #expect(Self.detail(.character("q")) == .closeOverlay)
        #expect(Self.detail(.backspace) == .closeOverlay)
        #expect(Self.detail(.control("c")) == .quit)
        #expect(Self.detail(.character("d")) == .nothing)
    }

    @Test func questionsTakeYesOrNoAndNothingElse() {
        let question = Question(title: "t", lines: [], yes: "y", no: "n", action: .leaveSelectMode)
        #expect(KeyMap.action(for: .character("Y"), in: .ask(question)) == .answerYes)
        #expect(KeyMap.action(for: .control("g"), in: .ask(question)) == .answerNo)
        #expect(KeyMap.action(for: .escape, in: .ask(question)) == .answerNo)
        #expect(KeyMap.action(for: .character("q"), in: .ask(question)) == .answerNo)
        #expect(KeyMap.action(for: .character("j"), in: .ask(question)) == .nothing)
        let plan = Overlay.confirm(DeletePlanResult(token: "t", expiresInMs: 1000, items: [], count: 1, bytes: 5), fromSelection: false)
        #expect(KeyMap.action(for: .character("y"), in: plan) == .confirmDelete)
        #expect(KeyMap.action(for: .escape, in: plan) == .cancelDelete)
        #expect(KeyMap.action(for: .control("c"), in: plan) == .cancelDelete)
        #expect(KeyMap.action(for: .control("g"), in: plan) == .nothing)  // only a question takes Ctrl-G
        let progress = Overlay.progress(title: "t", done: 0, total: 3)
        #expect(KeyMap.action(for: .character("q"), in: progress) == .batchRunsHint)
        #expect(KeyMap.action(for: .character("y"), in: progress) == .nothing)
        #expect(KeyMap.action(for: .character("j"), in: .help) == .closeOverlay)
    }

    @Test func theFilterIsTypedInThePrompt() {
        #expect(KeyMap.action(for: .character("F"), in: .prompt("*.NE")) == .editPrompt("*.NEF"))
        #expect(KeyMap.action(for: .space, in: .prompt("a")) == .editPrompt("a "))
        #expect(KeyMap.action(for: .backspace, in: .prompt("ab")) == .editPrompt("a"))
        #expect(KeyMap.action(for: .control("u"), in: .prompt("ab")) == .editPrompt(""))
        #expect(KeyMap.action(for: .enter, in: .prompt("2024")) == .submitFilter("2024"))
        #expect(KeyMap.action(for: .escape, in: .prompt("2024")) == .cancelPrompt)
        #expect(KeyMap.action(for: .character("q"), in: .prompt("")) == .editPrompt("q"))
    }
}
