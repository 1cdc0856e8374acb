// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A first-in first-out queue between threads, bounded or not: a producer appends
/// (waiting for room when the queue is full), a consumer takes in order (waiting
/// for an element), and either side closes it. Once closed, appends are refused
/// and takes drain what is left, then answer nil.
public final class BlockingQueue<Element: Sendable>: Sendable {
    private struct State: Sendable {
        var elements = FIFO<Element>()
        var closed = false
    }

    private let monitor = Monitor(State())
    /// The most elements held at once.
    public let capacity: Int

    public init(capacity: Int = .max) {
        precondition(capacity > 0, "a queue holds at least one element")
        self.capacity = capacity
    }

    /// Appends `element`, waiting until `deadline` for room; false when the queue is
    /// closed, or still full at the deadline (the element was not queued).
    @discardableResult
    public func push(_ element: Element, until deadline: Deadline = .never) -> Bool {
        monitor.withLock { locked in
            locked.wait(until: deadline) { $0.closed || $0.elements.count < capacity }
            guard !locked.state.closed, locked.state.elements.count < capacity else { return false }
            locked.state.elements.append(element)
            locked.broadcast()
            return true
        }
    }

    /// Takes the oldest element, waiting for one until `deadline`; nil when the queue
    /// is closed and empty, or still empty at the deadline. `spinning` first looks that
    /// many times, yielding the processor in between, before it sleeps: for a consumer
    /// that its producer is usually a few microseconds ahead of, a sleep and a wake-up
    /// per element cost more than the element.
    public func pop(until deadline: Deadline = .never, spinning: Int = 0) -> Element? {
        for _ in 0..<max(spinning, 0) {
            let (element, closed) = monitor.withLock { locked in
                let element = locked.state.elements.popFirst()
                if element != nil { locked.broadcast() }
                return (element, locked.state.closed)
            }
            if element != nil || closed { return element }
            sched_yield()
        }
        return monitor.withLock { locked in
            locked.wait(until: deadline) { $0.closed || !$0.elements.isEmpty }
            let element = locked.state.elements.popFirst()
            if element != nil { locked.broadcast() }
            return element
        }
    }

    /// Refuses further elements and wakes everyone waiting; what is queued can still be taken.
    public func close() {
        monitor.withLock { locked in
            locked.state.closed = true
            locked.broadcast()
        }
    }

    public var isClosed: Bool { monitor.withLock { $0.state.closed } }

    /// Elements queued now.
    public var count: Int { monitor.withLock { $0.state.elements.count } }
}
