// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct StatusLineTests {
    @Test func aMessageIsEscapedForTheTerminal() {
        var status = StatusLine()
        #expect(status.message == nil)
        // A photo's name may hold an escape sequence: shown, never acted on.
        status.say("IMG\u{1B}]0;owned\u{07}.JPG is protected", warning: true)
        #expect(status.message == StatusMessage(text: "IMG\\x1B]0;owned\\x07.JPG is protected", warning: true))
    }

    @Test func theNextMessageReplacesItAndAKeyClearsIt() {
        var status = StatusLine()
        status.say("first", warning: true)
        status.say("second")
        #expect(status.message == StatusMessage(text: "second", warning: false))
        status.clear()
        #expect(status.message == nil)
    }
}
