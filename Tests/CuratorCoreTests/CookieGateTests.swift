// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// Read-your-writes: a cookie waits for the work numbered before it, and only that.
@Suite struct CookieGateTests {
    @Test func aCookieWaitsForOlderWorkOnly() {
        var gate = CookieGate()
        let (a, b, c) = (ByteString("a"), ByteString("b"), ByteString("c"))
        let nothingPending = gate.arrived(a, sequence: 5, oldestWork: nil)
        let onlyLaterWork = gate.arrived(a, sequence: 5, oldestWork: 6)
        #expect(nothingPending && onlyLaterWork, "work queued after it is not its to wait for")
        let waitsForB = !gate.arrived(b, sequence: 7, oldestWork: 3)
        let waitsForC = !gate.arrived(c, sequence: 9, oldestWork: 3)
        #expect(waitsForB && waitsForC)
        let stillHeld = gate.release(oldestWork: 3)
        #expect(stillHeld.isEmpty)
        let released = gate.release(oldestWork: 8)
        #expect(released == [b])
        #expect(!gate.isEmpty)
        let rest = gate.release(oldestWork: nil)
        #expect(rest == [c])
        #expect(gate.isEmpty)
    }
}
