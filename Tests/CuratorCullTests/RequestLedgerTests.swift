// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct RequestLedgerTests {
    @Test func keysWaitWhileARequestIsUnanswered() {
        var ledger = RequestLedger()
        #expect(ledger.isIdle)
        ledger.sent()
        ledger.sent()
        ledger.answered()
        #expect(!ledger.isIdle)
        #expect(ledger.busy == 1)
        ledger.answered()
        #expect(ledger.isIdle)
    }

    @Test func anErrorRaisedInAReplyReachesTheLoop() {
        var ledger = RequestLedger()
        #expect(throws: Never.self) { try ledger.check() }
        ledger.carry(.connectionLost("first"))
        ledger.carry(.protocolMismatch("second"))
        do throws(CullError) {
            try ledger.check()
            Issue.record("no error")
        } catch {
            guard case .protocolMismatch(let why) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(why == "second")
        }
    }
}
