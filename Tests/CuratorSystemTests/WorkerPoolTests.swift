// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc
import Synchronization
import Testing

/// The one way work is handed to a thread: real POSIX threads, counted in
/// /proc/self/task by name (other suites run threads in this process too).
@Suite("WorkerPool: jobs on reused threads, handles with deadlines")
struct WorkerPoolTests {
    struct Oops: Error, Equatable { var code: Int }

    /// A gate a job waits behind until the test opens it.
    final class Gate: Sendable {
        private let open = OneShotSignal()
        let entered = OneShotSignal()
        func pass() {
            entered.signal()
            _ = open.wait(seconds: 30)
        }
        func release() { open.signal() }
    }

    /// The kernel's id of the calling thread (`/proc/thread-self` is `PID/task/TID`),
    /// not reused while the process lives as a pthread_t may be.
    /// Shared by a test and its jobs (a local Mutex or Atomic would be captured by reference).
    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
        var current: Value { value.withLock { $0 } }
    }

    static func tid() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard n > 0 else { return -1 }
        let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.flatMap { Int32($0) } ?? -1
    }

    /// Threads of this process whose name is `name`.
    static func threads(named name: String) -> Int {
        guard let dir = opendir("/proc/self/task") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard task.first != "." else { continue }
            if threadName("/proc/self/task/\(task)/comm") == name { count += 1 }
        }
        return count
    }

    static func threadName(_ path: String = "/proc/thread-self/comm") -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n], as: UTF8.self).trimmingSuffix("\n")
    }

    /// Polls `condition` up to `seconds`.
    static func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Deadline.after(seconds: seconds)
        while !condition() {
            if deadline.hasPassed { return false }
            usleep(2_000)
        }
        return true
    }

    @Test("a pool of one thread runs its jobs in the order submitted")
    func order() throws {
        let pool = WorkerPool(name: "wp-order", threads: 1, queueLimit: 10_000, stackSize: 256 << 10, keepIdleSeconds: 1)
        let seen = Shared<[Int]>([])
        var handles: [JobHandle<Void, Never>] = []
        for i in 0..<2_000 {
            handles.append(try pool.submit { seen.update { $0.append(i) } })
        }
        for handle in handles { _ = handle.wait() }
        #expect(seen.current == Array(0..<2_000))
    }

    @Test("values and thrown errors come back through the handle; a job that throws leaves its thread working")
    func outcomes() throws {
        let pool = WorkerPool(name: "wp-outcome", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 5)
        let first = try pool.submit { (Self.tid(), 42) }
        let failing = try pool.submit { () throws(Oops) -> Int in throw Oops(code: 7) }
        let after = try pool.submit { (Self.tid(), "still here") }

        guard case .returned(let (tid1, value))? = first.wait(until: .after(seconds: 10)) else {
            Issue.record("the first job did not return")
            return
        }
        #expect(value == 42)
        guard case .threw(let error)? = failing.wait(until: .after(seconds: 10)) else {
            Issue.record("the error was not carried")
            return
        }
        #expect(error == Oops(code: 7))
        #expect(throws: Oops(code: 7)) { try failing.wait().get() }
        guard case .returned(let (tid2, text))? = after.wait(until: .after(seconds: 10)) else {
            Issue.record("the job after the one that threw did not run")
            return
        }
        #expect(text == "still here")
        #expect(tid1 == tid2, "the same thread ran both, before and after the error")
    }

    @Test("a wait with a deadline gives up on time; the job goes on and its value is had later")
    func deadline() throws {
        let pool = WorkerPool(name: "wp-deadline", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 1)
        let gate = Gate()
        let handle = try pool.submit { gate.pass(); return "done" }
        #expect(gate.entered.wait(seconds: 10))
        let start = MonotonicClock.nanoseconds()
        #expect(handle.wait(until: .after(seconds: 0.05)) == nil)
        let waited = Double(MonotonicClock.nanoseconds() - start) / 1e9
        #expect(waited >= 0.05 && waited < 5, "waited \(waited) s")
        #expect(!handle.isFinished)
        #expect(handle.wait(until: .now) == nil)
        gate.release()
        #expect(handle.wait().get() == "done")
        #expect(handle.isFinished)
    }

    @Test("a full queue refuses, or holds the submitter back until a thread takes a job")
    func backPressure() throws {
        let pool = WorkerPool(name: "wp-full", threads: 1, queueLimit: 2, stackSize: 256 << 10, keepIdleSeconds: 1)
        let gate = Gate()
        let running = try pool.submit { gate.pass() }
        #expect(gate.entered.wait(seconds: 10))
        let queued = try (0..<2).map { i in try pool.submit(whenFull: .refuse) { i } }
        #expect(pool.queuedCount == 2)

        #expect(throws: WorkerError.self) { try pool.submit(whenFull: .refuse) { 3 } }
        let start = MonotonicClock.nanoseconds()
        #expect(throws: WorkerError.self) { try pool.submit(whenFull: .wait(until: .after(seconds: 0.05))) { 3 } }
        #expect(MonotonicClock.nanoseconds() - start >= 50_000_000)

        // A submitter that waits gets in once the thread takes the next job.
        let admitted = OneShotSignal()
        let submitter = WorkerPool(name: "wp-submitter", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 1)
        let late = try submitter.submit { () throws(WorkerError) -> JobHandle<Int, Never> in
            let handle = try pool.submit(whenFull: .wait(until: .after(seconds: 30))) { 3 }
            admitted.signal()
            return handle
        }
        #expect(!admitted.wait(seconds: 0.1), "admitted while the queue was full")
        gate.release()
        #expect(admitted.wait(seconds: 10))
        _ = running.wait()
        #expect(queued.map { $0.wait().get() } == [0, 1])
        #expect(try late.wait().get()?.wait().get() == 3)
    }

    @Test("with no queue, a submitter waits for the thread to finish its job, and gets that thread")
    func noQueue() throws {
        let pool = WorkerPool(name: "wp-noqueue", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 30)
        let gate = Gate()
        let first = try pool.submit { gate.pass(); return Self.tid() }
        #expect(gate.entered.wait(seconds: 10))
        #expect(throws: WorkerError.self) { try pool.submit(whenFull: .refuse) { Self.tid() } }
        let submitter = WorkerPool(name: "wp-submitter2", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 1)
        let second = try submitter.submit { () throws(WorkerError) -> Int32? in
            try pool.submit(whenFull: .wait(until: .after(seconds: 30))) { Self.tid() }.wait().get()
        }
        #expect(second.wait(until: .after(seconds: 0.1)) == nil, "admitted while the thread was busy")
        let start = MonotonicClock.nanoseconds()
        gate.release()
        let tid = try #require(try second.wait().get())
        #expect(MonotonicClock.nanoseconds() - start < 5_000_000_000, "let in when the thread went idle, not when it ended")
        #expect(tid == first.wait().get())
    }

    @Test("shutdown cancels the jobs not started, waits for the running one, and refuses new ones")
    func shutdown() throws {
        let pool = WorkerPool(name: "wp-shutdown", threads: 1, queueLimit: 10, stackSize: 256 << 10, keepIdleSeconds: 30)
        let gate = Gate()
        let running = try pool.submit { gate.pass(); return 1 }
        #expect(gate.entered.wait(seconds: 10))
        let ran = Shared(0)
        let pending = try (0..<5).map { _ in try pool.submit { ran.update { $0 += 1 } } }

        #expect(!pool.shutdown(until: .after(seconds: 0.05)), "a job is still running")
        for handle in pending {
            guard case .cancelled? = handle.wait(until: .after(seconds: 1)) else {
                Issue.record("a queued job was not cancelled")
                continue
            }
        }
        #expect(throws: WorkerError.self) { try pool.submit { 2 } }
        gate.release()
        #expect(pool.shutdown(until: .after(seconds: 10)))
        #expect(running.wait().get() == 1)
        #expect(ran.current == 0)
        #expect(pool.threadCount == 0)
        #expect(Self.eventually { Self.threads(named: "wp-shutdown") == 0 })
    }

    @Test("ten thousand jobs reuse the pool's threads, which end once idle: no thread is leaked")
    func noLeak() throws {
        let name = "wp-leak"
        #expect(Self.threads(named: name) == 0)
        var tids: Set<Int32> = []
        do {
            let pool = WorkerPool(name: name, threads: 3, stackSize: 256 << 10, keepIdleSeconds: 0.2)
            var mostAlive = 0
            for round in 0..<3_334 {
                let handles = try (0..<3).map { _ in try pool.submit { Self.tid() } }
                for handle in handles { tids.insert(handle.wait().get() ?? 0) }
                if round % 500 == 0 { mostAlive = max(mostAlive, Self.threads(named: name)) }
            }
            #expect(mostAlive <= 3)
            #expect(pool.threadCount <= 3)
            #expect(pool.started.threads <= 3 && pool.started.jobs == 10_002, "\(pool.started)")
            #expect(Self.eventually { pool.threadCount == 0 }, "idle threads end after keepIdleSeconds")
        }
        #expect(tids.count <= 3, "10 002 jobs ran on \(tids.count) threads")
        #expect(Self.eventually { Self.threads(named: name) == 0 }, "\(Self.threads(named: name)) threads left")
    }

    @Test("with no idle time kept, each job's thread ends with it")
    func noIdle() throws {
        let pool = WorkerPool(name: "wp-noidle", threads: 4, stackSize: 256 << 10, keepIdleSeconds: 0)
        let first = try pool.submit { Self.tid() }.wait().get()
        #expect(Self.eventually { pool.threadCount == 0 })
        let second = try pool.submit { Self.tid() }.wait().get()
        #expect(first != second)
        #expect(pool.started.threads == 2)
        #expect(Self.eventually { Self.threads(named: "wp-noidle") == 0 })
    }

    @Test("a pool dropped with jobs queued still runs them, then its threads end")
    func dropped() throws {
        let done = OneShotSignal()
        let gate = Gate()
        do {
            let pool = WorkerPool(name: "wp-dropped", threads: 1, queueLimit: 1, stackSize: 256 << 10, keepIdleSeconds: 30)
            try pool.submit { gate.pass() }
            #expect(gate.entered.wait(seconds: 10))
            try pool.submit { done.signal() }
        }
        gate.release()
        #expect(done.wait(seconds: 10))
        #expect(Self.eventually { Self.threads(named: "wp-dropped") == 0 })
    }

    @Test("a job may own what is not Sendable, and names its thread while it runs")
    func ownershipAndNames() throws {
        final class Tally {  // not Sendable: handed over whole to the job
            var total = 0
        }
        let pool = WorkerPool(name: "wp-names", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 1)
        let tally = Tally()
        let handle = try pool.submit(named: "wp-named-job") { () -> (Int, String?) in
            for i in 1...10 { tally.total += i }
            return (tally.total, Self.threadName())
        }
        let (total, name) = try #require(handle.wait().get())
        #expect(total == 55)
        #expect(name == "wp-named-job")
        #expect(try pool.submit { Self.threadName() }.wait().get() == "wp-names")
    }

    @Test("a thread that cannot be started is an error, and the job is not kept")
    func noThread() throws {
        // A stack larger than the address space: pthread_create fails.
        let pool = WorkerPool(name: "wp-nothread", threads: 1, stackSize: 1 << 50, keepIdleSeconds: 1)
        let ran = Shared(false)
        do {
            try pool.submit { ran.update { $0 = true } }
            Issue.record("a thread with a 1 PiB stack started")
        } catch {
            guard case .cannotStartThread = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        #expect(pool.queuedCount == 0)
        #expect(pool.threadCount == 0)
        #expect(!ran.current)
    }

    @Test("up to `threads` jobs run at once; more wait in the queue")
    func width() throws {
        let pool = WorkerPool(name: "wp-width", threads: 3, queueLimit: 10, stackSize: 256 << 10, keepIdleSeconds: 1)
        let gates = (0..<3).map { _ in Gate() }
        let handles = try gates.map { gate in try pool.submit { gate.pass() } }
        for gate in gates { #expect(gate.entered.wait(seconds: 10), "three jobs run side by side") }
        let fourth = try pool.submit { 4 }
        #expect(fourth.wait(until: .after(seconds: 0.05)) == nil)
        #expect(pool.threadCount == 3)
        gates[1].release()
        #expect(fourth.wait(until: .after(seconds: 10))?.get() == 4)
        for gate in gates { gate.release() }
        for handle in handles { _ = handle.wait() }
    }
}

private extension String {
    func trimmingSuffix(_ suffix: Character) -> String { last == suffix ? String(dropLast()) : self }
}
