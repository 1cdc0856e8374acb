// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// The queues' stack of ids in runs (`IDStack`) against a plain array.
struct IDStackTests {
    @Test func behavesLikeAnArray() {
        var stack = IDStack()
        var model: [Int64] = []
        var generator = SplitMix64(seed: 7)
        // Mostly the next id (runs), sometimes a jump back or ahead, and ids only a
        // corrupt index holds (kept aside, one of them the sentinel's bit pattern).
        let odd: [Int64] = [0, -1, -5, Int64.max, Int64.min, (1 << 40) - 2, (1 << 40) - 1, 1 << 40]
        var next: Int64 = 1
        for step in 0..<50_000 {
            switch generator.next() % 10 {
            case 0...4:
                stack.append(next)
                model.append(next)
                next += 1
            case 5:
                let id = odd[Int(generator.next() % UInt64(odd.count))]
                stack.append(id)
                model.append(id)
            case 6:
                next = Int64(generator.next() % 5000)
            default:
                #expect(stack.last == model.last, "step \(step)")
                #expect(stack.popLast() == model.popLast(), "step \(step)")
            }
            #expect(stack.count == model.count, "step \(step)")
            if step % 499 == 0 { #expect(stack.ids == model, "step \(step)") }
        }
        while let id = model.popLast() { #expect(stack.popLast() == id) }
        #expect(stack.popLast() == nil)
        #expect(stack.isEmpty && stack.wordBytes == 0, "an emptied stack gives its words back")
    }

    /// A first scan's million photos, a sidecar between every ten: a word a run.
    @Test func aScansPhotosTakeAWordARun() {
        var stack = IDStack()
        for id in Int64(1)...1_100_000 where id % 11 != 0 { stack.append(id) }
        #expect(stack.count == 1_000_000)
        #expect(stack.wordBytes <= 100_000 * 8 * 2)
        #expect(stack.popLast() == 1_099_999)
        #expect(stack.last == 1_099_998)
    }
}
