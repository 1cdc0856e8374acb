// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Synchronization

/// Threads that run jobs, first in first out: the one way curatord hands work to
/// another thread. Plain POSIX threads (blocking system calls do not belong on
/// Swift's cooperative pool), started when a job finds no idle one, up to `threads`
/// at once, and ended after `keepIdleSeconds` without a job, so that a burst of
/// jobs (the chunks of a batch) reuses the same few threads and an idle daemon
/// keeps none. A pool of one thread is a serial worker; a long loop (accepting
/// clients, serving one) is one long job.
///
/// A job is a closure `sending` into the pool: it may capture what is Sendable, and
/// what is not if the caller lets go of it (the compiler checks which). Its value
/// (Sendable) or error comes back through the `JobHandle`.
public final class WorkerPool: Sendable {
    /// What `submit` does when every thread is busy and the queue is full.
    public enum WhenFull: Sendable {
        /// Waits for room until the deadline (`.never`: as long as it takes), then refuses.
        case wait(until: Deadline)
        /// Refuses at once.
        case refuse
    }

    private let core: Core

    /// - Parameters:
    ///   - name: the threads' name in `ps -L` and `top -H` (at most 15 bytes are kept),
    ///     unless a job names itself.
    ///   - threads: the most threads at once.
    ///   - queueLimit: the most jobs waiting while every thread is busy.
    ///   - stackSize: each thread's stack.
    ///   - keepIdleSeconds: how long a thread without a job waits for one before it
    ///     ends (0: it ends at once).
    public init(name: String, threads: Int, queueLimit: Int = 0, stackSize: Int, keepIdleSeconds: Double) {
        precondition(threads >= 1 && queueLimit >= 0, "a pool has at least one thread")
        core = Core(name: name, maxThreads: threads, queueLimit: queueLimit, stackSize: stackSize, keepIdle: keepIdleSeconds)
    }

    /// No job can be submitted any more: idle threads end now, the others once the
    /// jobs queued are done.
    deinit { core.close() }

    /// Queues `job` for the next free thread (starting one if none is idle and the
    /// pool has room) and returns at once. `name` names the thread while it runs the
    /// job. Throws when the pool is shut down, full (`whenFull`), or cannot start a
    /// thread it needs (the job is then not queued: the caller may run it itself).
    @discardableResult
    public func submit<Value: Sendable, Failure: Error>(
        named name: String? = nil, whenFull: WhenFull = .wait(until: .never),
        _ job: sending @escaping () throws(Failure) -> Value
    ) throws(WorkerError) -> JobHandle<Value, Failure> {
        let handle = JobHandle<Value, Failure>()
        // The closure is held in a mutex of its own so that the pool, which only
        // ever runs it once on one thread, can carry it as a Sendable job.
        let body = Mutex<(() throws(Failure) -> Value)?>(job)
        let work = Job(name: name, run: {
            let outcome = body.withLock { job -> JobOutcome<Value, Failure> in
                guard let run = job.take() else { return .cancelled }
                do throws(Failure) {
                    return .returned(try run())
                } catch {
                    return .threw(error)
                }
            }
            handle.finish(outcome)
        }, cancel: {
            handle.finish(.cancelled)
        })
        try core.admit(work, whenFull: whenFull)
        return handle
    }

    /// Takes no more jobs, cancels those not started (their handles say `.cancelled`),
    /// and waits until `deadline` for the running ones to end: a job is never
    /// interrupted, so a long one must be told to stop by its own means first.
    /// True when every thread has ended.
    @discardableResult
    public func shutdown(until deadline: Deadline) -> Bool {
        for job in core.close(cancelling: true) { job.cancel() }
        return core.waitForThreads(until: deadline)
    }

    /// Threads alive now (running a job, idle, or starting).
    public var threadCount: Int { core.threadCount }

    /// Jobs waiting for a thread now.
    public var queuedCount: Int { core.queuedCount }

    /// Threads started since the pool was made, and jobs taken by them: a pool that
    /// reuses its threads starts few for many jobs.
    public var started: (threads: Int, jobs: Int) { core.started }
}

public enum WorkerError: Error, Sendable, CustomStringConvertible {
    /// Every thread was busy and the queue full.
    case full(pool: String)
    /// The pool was shut down.
    case shutDown(pool: String)
    /// A thread was needed and pthread_create failed (EAGAIN: a limit on threads or memory).
    case cannotStartThread(pool: String, SystemError)

    public var description: String {
        switch self {
        case .full(let pool): "the \(pool) threads are all busy and their queue is full"
        case .shutDown(let pool): "the \(pool) threads are shut down"
        case .cannotStartThread(let pool, let error): "cannot start a \(pool) thread: \(error)"
        }
    }
}

private struct Job: Sendable {
    let name: String?
    let run: @Sendable () -> Void
    let cancel: @Sendable () -> Void
}

/// What the pool's threads share with it; it outlives the `WorkerPool` for as long
/// as a thread runs.
private final class Core: Sendable {
    struct State: Sendable {
        var queue = FIFO<Job>()
        /// Threads alive; of them, `starting` have not looked at the queue yet and
        /// `idle` wait for a job. Each of those takes a queued job without a new thread.
        var threads = 0
        var starting = 0
        var idle = 0
        /// Submitters waiting for room in the queue.
        var waitingForRoom = 0
        var closed = false
        var threadsStarted = 0
        var jobsTaken = 0
    }

    let name: String
    let maxThreads: Int
    let queueLimit: Int
    let stackSize: Int
    let keepIdle: Double
    let monitor = Monitor(State())

    init(name: String, maxThreads: Int, queueLimit: Int, stackSize: Int, keepIdle: Double) {
        self.name = name
        self.maxThreads = maxThreads
        self.queueLimit = queueLimit
        self.stackSize = stackSize
        self.keepIdle = keepIdle
    }

    func admit(_ job: Job, whenFull: WorkerPool.WhenFull) throws(WorkerError) {
        try monitor.withLock { (locked) throws(WorkerError) in
            while true {
                guard !locked.state.closed else { throw .shutDown(pool: name) }
                let waiting = locked.state.queue.count - locked.state.starting - locked.state.idle
                if waiting < 0 {
                    // A thread that is starting or idle takes it.
                    locked.state.queue.append(job)
                    locked.broadcast()
                    return
                }
                if locked.state.threads < maxThreads {
                    locked.state.queue.append(job)
                    do throws(SystemError) {
                        try startThread()
                    } catch {
                        // No thread took it: the lock was held throughout.
                        locked.state.queue.removeLast()
                        throw .cannotStartThread(pool: name, error)
                    }
                    locked.state.threads += 1
                    locked.state.starting += 1
                    locked.state.threadsStarted += 1
                    return
                }
                if waiting < queueLimit {
                    locked.state.queue.append(job)
                    return
                }
                guard case .wait(let deadline) = whenFull, !deadline.hasPassed else { throw .full(pool: name) }
                locked.state.waitingForRoom += 1
                locked.wait(until: deadline)
                locked.state.waitingForRoom -= 1
            }
        }
    }

    /// Marks the pool closed and wakes every waiter; with `cancelling`, takes the
    /// jobs not started out of the queue and returns them.
    @discardableResult
    func close(cancelling: Bool = false) -> [Job] {
        monitor.withLock { locked in
            locked.state.closed = true
            locked.broadcast()
            return cancelling ? locked.state.queue.removeAll() : []
        }
    }

    func waitForThreads(until deadline: Deadline) -> Bool {
        monitor.withLock { locked in locked.wait(until: deadline) { $0.threads == 0 } }
    }

    var threadCount: Int { monitor.withLock { $0.state.threads } }
    var queuedCount: Int { monitor.withLock { $0.state.queue.count } }
    var started: (threads: Int, jobs: Int) { monitor.withLock { ($0.state.threadsStarted, $0.state.jobsTaken) } }

    private func startThread() throws(SystemError) {
        try SystemThread.detach(name: name, stackSize: stackSize) { [self] in runThread() }
    }

    /// A thread's life: jobs until none comes for `keepIdle` seconds, or the pool closes.
    private func runThread() {
        var shownName = name
        var first = true
        while let job = nextJob(first: first) {
            first = false
            let wanted = job.name ?? name
            if wanted != shownName {
                curator_name_thread(wanted)
                shownName = wanted
            }
            job.run()
        }
    }

    /// The next job for this thread, waiting for one; nil when the thread is to end
    /// (it is then no longer counted).
    private func nextJob(first: Bool) -> Job? {
        monitor.withLock { locked in
            if first { locked.state.starting -= 1 }
            let idleUntil = Deadline.after(seconds: keepIdle)
            while true {
                if let job = locked.state.queue.popFirst() {
                    locked.state.jobsTaken += 1
                    if locked.state.waitingForRoom > 0 { locked.broadcast() }
                    return job
                }
                if locked.state.closed || idleUntil.hasPassed {
                    locked.state.threads -= 1
                    locked.broadcast()
                    return nil
                }
                locked.state.idle += 1
                // An idle thread is room for a submitter waiting for some.
                if locked.state.waitingForRoom > 0 { locked.broadcast() }
                locked.wait(until: idleUntil)
                locked.state.idle -= 1
            }
        }
    }
}
