// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc
import Synchronization
import Testing

@Suite("BlockingQueue and OneShotSignal: handoffs between threads")
struct BlockingQueueTests {
    @Test("elements come out in order, across threads, with a consumer that spins first")
    func order() throws {
        let queue = BlockingQueue<Int>(capacity: 16)
        let pool = WorkerPool(name: "bq-producer", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 1)
        let producer = try pool.submit {
            for i in 0..<20_000 { queue.push(i) }
            queue.close()
        }
        var seen: [Int] = []
        while let element = queue.pop(spinning: 32) { seen.append(element) }
        _ = producer.wait()
        #expect(seen == Array(0..<20_000))
    }

    @Test("a full queue holds the producer back until the deadline")
    func bounded() throws {
        let queue = BlockingQueue<Int>(capacity: 2)
        #expect(queue.push(1) && queue.push(2))
        let start = MonotonicClock.nanoseconds()
        #expect(!queue.push(3, until: .after(seconds: 0.05)))
        #expect(MonotonicClock.nanoseconds() - start >= 50_000_000)
        #expect(queue.count == 2)

        let pool = WorkerPool(name: "bq-full", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 1)
        let pushed = OneShotSignal()
        let producer = try pool.submit {
            let accepted = queue.push(3)
            pushed.signal()
            return accepted
        }
        #expect(!pushed.wait(seconds: 0.1), "pushed into a full queue")
        #expect(queue.pop() == 1)
        #expect(pushed.wait(seconds: 10))
        #expect(producer.wait().get() == true)
        #expect(queue.pop() == 2)
        #expect(queue.pop() == 3)
    }

    @Test("an empty queue answers nil at the deadline; a closed one drains, then answers nil and refuses")
    func closing() throws {
        let queue = BlockingQueue<String>()
        let start = MonotonicClock.nanoseconds()
        #expect(queue.pop(until: .after(seconds: 0.05)) == nil)
        #expect(MonotonicClock.nanoseconds() - start >= 50_000_000)
        #expect(queue.pop(until: .now, spinning: 3) == nil)

        queue.push("a")
        queue.push("b")
        queue.close()
        #expect(!queue.push("c"))
        #expect(queue.isClosed)
        #expect(queue.pop() == "a")
        #expect(queue.pop() == "b")
        #expect(queue.pop() == nil)

        // A consumer waiting on an empty queue is woken by close.
        let waiting = BlockingQueue<Int>()
        let pool = WorkerPool(name: "bq-close", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 1)
        let consumer = try pool.submit { waiting.pop() }
        usleep(20_000)
        waiting.close()
        guard case .returned(let value)? = consumer.wait(until: .after(seconds: 10)) else {
            Issue.record("close did not wake the consumer")
            return
        }
        #expect(value == nil)
    }

    @Test("a one-shot signal waits with a deadline, and stays signalled")
    func oneShot() throws {
        let signal = OneShotSignal()
        #expect(!signal.isSignalled)
        let start = MonotonicClock.nanoseconds()
        #expect(!signal.wait(seconds: 0.05))
        #expect(MonotonicClock.nanoseconds() - start >= 50_000_000)
        let pool = WorkerPool(name: "bq-signal", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 1)
        try pool.submit {
            usleep(20_000)
            signal.signal()
        }
        #expect(signal.wait(seconds: 10))
        #expect(signal.isSignalled)
        #expect(signal.wait(seconds: 0))
    }

    @Test("a deadline is on the monotonic clock; never is never")
    func deadlines() {
        #expect(Deadline.never.secondsLeft == .infinity)
        #expect(!Deadline.never.hasPassed)
        #expect(Deadline.after(seconds: -1).hasPassed)
        #expect(Deadline.after(seconds: .infinity) == .never)
        let soon = Deadline.after(seconds: 60)
        #expect(soon.secondsLeft > 59 && soon.secondsLeft <= 60)
        #expect(Deadline.now < soon && soon < .never)
    }
}
