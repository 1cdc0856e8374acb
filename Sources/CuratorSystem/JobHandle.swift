// SPDX-License-Identifier: GPL-2.0-or-later

/// How a job ended.
public enum JobOutcome<Value: Sendable, Failure: Error>: Sendable {
    case returned(Value)
    case threw(Failure)
    /// It never ran: its pool was shut down before a thread took it.
    case cancelled

    /// The value, or the job's error thrown again; nil when the job never ran.
    public func get() throws(Failure) -> Value? {
        switch self {
        case .returned(let value): return value
        case .threw(let error): throw error
        case .cancelled: return nil
        }
    }
}

/// A job submitted to a `WorkerPool`: wait for it, with a deadline or without, from
/// any thread and as often as wanted. The job runs whether or not anyone waits.
public final class JobHandle<Value: Sendable, Failure: Error>: Sendable {
    private let outcome = Monitor<JobOutcome<Value, Failure>?>(nil)

    init() {}

    /// Called once, by the pool, when the job returned, threw or was dropped.
    func finish(_ ending: JobOutcome<Value, Failure>) {
        outcome.withLock { locked in
            precondition(locked.state == nil, "a job finished twice")
            locked.state = ending
            locked.broadcast()
        }
    }

    /// True once the job has ended (or was cancelled).
    public var isFinished: Bool { outcome.withLock { $0.state != nil } }

    /// Waits for the job to end, however long it takes.
    public func wait() -> JobOutcome<Value, Failure> {
        outcome.withLock { locked in
            locked.wait { $0 != nil }
            return locked.state ?? .cancelled
        }
    }

    /// Waits for the job to end until `deadline`; nil when it is still running then
    /// (it goes on: a job is never interrupted).
    public func wait(until deadline: Deadline) -> JobOutcome<Value, Failure>? {
        outcome.withLock { locked in
            locked.wait(until: deadline) { $0 != nil }
            return locked.state
        }
    }
}
