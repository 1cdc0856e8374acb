// SPDX-License-Identifier: GPL-2.0-or-later

/// A first-in first-out list: append at the back, take from the front, both O(1)
/// (amortized). What a `WorkerPool`'s and a `BlockingQueue`'s waiting elements are kept in.
struct FIFO<Element> {
    private var elements: [Element?] = []
    private var head = 0

    var count: Int { elements.count - head }
    var isEmpty: Bool { head == elements.count }

    mutating func append(_ element: Element) { elements.append(element) }

    mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        elements[head] = nil
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Drops the element appended last (a job its pool could not start).
    mutating func removeLast() {
        if count > 0 { elements.removeLast() }
    }

    /// Takes every element, oldest first.
    mutating func removeAll() -> [Element] {
        let all = elements[head...].compactMap { $0 }
        elements.removeAll()
        head = 0
        return all
    }
}

extension FIFO: Sendable where Element: Sendable {}
