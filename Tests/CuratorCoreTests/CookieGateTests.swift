// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// Read-your-writes: a cookie waits for the work numbered before it, and only that.
@Suite struct CookieGateTests {
    @Test func aCookieWaitsForOlderWorkOnly() {
        var gate = CookieGate()
        let (a, b, c) = (ByteString("a"), ByteString("b"), ByteString("c"))
        let nothingPending = gate.arrived(a, root: 1, sequence: 5, oldestWork: nil)
        let onlyLaterWork = gate.arrived(a, root: 1, sequence: 5, oldestWork: 6)
        #expect(nothingPending && onlyLaterWork, "work queued after it is not its to wait for")
        let waitsForB = !gate.arrived(b, root: 1, sequence: 7, oldestWork: 3)
        let waitsForC = !gate.arrived(c, root: 1, sequence: 9, oldestWork: 3)
        #expect(waitsForB && waitsForC)
        let stillHeld = gate.release { _ in 3 }
        #expect(stillHeld.isEmpty)
        let released = gate.release { _ in 8 }
        #expect(released == [b])
        #expect(!gate.isEmpty)
        let rest = gate.release { _ in nil }
        #expect(rest == [c])
        #expect(gate.isEmpty)
    }

    /// A share whose server hangs keeps its own work pending for as long as it
    /// hangs: the cookies of other roots do not wait for it.
    @Test func aCookieWaitsForItsOwnRootsWorkOnly() {
        var gate = CookieGate()
        let (local, share) = (ByteString("local"), ByteString("share"))
        let pending: [Int32: UInt64] = [2: 1]
        let localAnswered = gate.arrived(local, root: 1, sequence: 5, oldestWork: pending[1])
        let shareWaits = !gate.arrived(share, root: 2, sequence: 6, oldestWork: pending[2])
        #expect(localAnswered && shareWaits)
        let held = gate.release { pending[$0] }
        #expect(held.isEmpty)
        let released = gate.release { _ in nil }
        #expect(released == [share])
    }
}
