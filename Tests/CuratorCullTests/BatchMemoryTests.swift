// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct BatchMemoryTests {
    @Test func undoOffersThisGridsBatchWhileItIsInTheTrash() {
        var memory = BatchMemory()
        #expect(memory.toUndo(inTrash: []) == nil)
        #expect(memory.toUndo(inTrash: [3, 8]) == 8)  // none of ours: the latest
        memory.moved(5)
        #expect(memory.toUndo(inTrash: [3, 5, 8]) == 5)
        #expect(memory.toUndo(inTrash: [3, 8]) == 8)  // ours was emptied or undone elsewhere
    }

    @Test func puttingBackAnotherBatchKeepsOurs() {
        var memory = BatchMemory()
        memory.moved(5)
        memory.putBack(3)
        #expect(memory.last == 5)
        memory.putBack(5)
        #expect(memory.last == nil)
    }
}
