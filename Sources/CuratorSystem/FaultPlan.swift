// SPDX-License-Identifier: GPL-2.0-or-later
#if CURATOR_FAULT_INJECTION
import Glibc
import Synchronization

/// The entries of `SystemCalls` a test can make fail, by the name of the call.
/// `close` covers closedir too (both end a descriptor).
package enum SystemCall: String, Sendable, CaseIterable {
    case openat, close, read, pread, write, pwrite, fsync, syncfs
    case fstat, fstatat, stat, statx, statfs
    case mkdirat, unlinkat, renameat2, linkat, fchmod, chmod, fchown, fchownat, ftruncate, lseek, flock, fcntl, dup, dup2
    case readlink, realpath, faccessat, fdopendir, readdir
    case socket, bind, listen, accept4, connect, send, recv, shutdown, getsockopt, getsockname, poll, eventfd
    case inotify_add_watch
}

/// One failure a test wants: which call, on what, to what effect, and when.
package struct Fault: Sendable, CustomStringConvertible {
    package enum Effect: Sendable, Equatable {
        /// The call fails with this errno without being made; except `close`, which
        /// is made first (Linux releases the descriptor whatever close(2) reports).
        case fail(Errno)
        /// The call moves at most this many bytes (read, pread, write, pwrite, send,
        /// recv): a short read or write, as a pipe, a socket or a signal gives.
        case short(Int)
    }

    package var call: SystemCall
    /// Only calls about this path: a path argument, or the path a descriptor was
    /// opened by while the plan was in force. Matches the whole path or its last
    /// components (`"x.trashinfo"` matches `/t/info/x.trashinfo`). Nil: any.
    package var path: ByteString?
    package var effect: Effect
    /// Matching calls let through before the fault strikes.
    package var skip: Int
    /// How many matching calls it strikes; `Int.max` for every one.
    package var times: Int

    package init(_ call: SystemCall, path: ByteString? = nil, _ effect: Effect, skip: Int = 0, times: Int = 1) {
        self.call = call
        self.path = path
        self.effect = effect
        self.skip = skip
        self.times = times
    }

    package var description: String { "\(call)\(path.map { " \($0)" } ?? "") \(effect)" }
}

/// Faults for the calls one thread makes while `run` runs: how tests make a
/// syscall fail on purpose (EINTR, EACCES, EIO, ENOSPC, short reads and writes)
/// on the real code path, without the kernel's help. Only the thread that runs the
/// plan is affected: tests running at the same time on other threads are not.
/// Compiled into debug builds only; a release build has no trace of it.
package final class FaultPlan {
    /// A call the plan saw: what it was about, and what was done to it.
    package struct Call: Sendable, Equatable {
        package var call: SystemCall
        package var path: ByteString?
        package var injected: Fault.Effect?
    }

    /// Every call made through the table on the plan's thread while it ran, in order.
    package private(set) var calls: [Call] = []
    private var faults: [(fault: Fault, seen: Int, struck: Int)]
    /// The path each descriptor opened under the plan was opened by.
    private var paths: [Int32: ByteString] = [:]

    package init(_ faults: [Fault]) {
        self.faults = faults.map { ($0, 0, 0) }
    }

    package convenience init(_ faults: Fault...) { self.init(faults) }

    /// Runs `body` with the plan in force on this thread (plans nest: the inner one
    /// is in force until it returns).
    package func run<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let previous = pthread_getspecific(planKey)
        pthread_setspecific(planKey, Unmanaged.passUnretained(self).toOpaque())
        armedPlans.add(1, ordering: .relaxed)
        defer {
            armedPlans.subtract(1, ordering: .relaxed)
            pthread_setspecific(planKey, previous)
        }
        return try body()
    }

    /// How many times `call` was made.
    package func count(_ call: SystemCall) -> Int { calls.filter { $0.call == call }.count }

    /// The faults that struck fewer times than asked (at least once for `Int.max`):
    /// a test whose fault never met its call tested nothing.
    package var missed: [Fault] {
        faults.filter { $0.struck == 0 || ($0.fault.times != .max && $0.struck < $0.fault.times) }.map(\.fault)
    }

    // MARK: the hook SystemCalls calls

    /// True while some thread runs a plan: one relaxed load, then the table makes the plain call.
    @usableFromInline package static var isArmed: Bool { armedPlans.load(ordering: .relaxed) > 0 }

    private static var current: FaultPlan? {
        guard let raw = pthread_getspecific(planKey) else { return nil }
        return Unmanaged<FaultPlan>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Makes the call `real` (given the most bytes it may move), or fails it, as the
    /// plan of this thread says. `callsThrough`: a failure is reported after the call is made.
    @usableFromInline package static func intercept<T: FixedWidthInteger>(
        _ call: SystemCall, path: UnsafePointer<CChar>? = nil, in directory: Int32? = nil, descriptor: Int32? = nil,
        callsThrough: Bool = false, _ real: (Int) -> T
    ) -> T {
        guard let plan = current else { return real(.max) }
        let subject = plan.subject(path: path, in: directory, descriptor: descriptor)
        let effect = plan.strike(call, subject)
        let result: T
        switch effect {
        case .fail(let error)?:
            if callsThrough { _ = real(.max) }
            if call == .close, let descriptor { plan.paths[descriptor] = nil }
            errno = error.rawValue
            return -1
        case .short(let limit)?:
            result = real(max(limit, 0))
        case nil:
            result = real(.max)
        }
        let saved = errno
        plan.note(call, result: Int64(result), subject: subject, descriptor: descriptor)
        errno = saved
        return result
    }

    /// `intercept` for calls that answer a pointer, nil on failure.
    @usableFromInline package static func interceptPointer<P>(
        _ call: SystemCall, path: UnsafePointer<CChar>? = nil, descriptor: Int32? = nil, _ real: () -> P?
    ) -> P? {
        guard let plan = current else { return real() }
        let subject = plan.subject(path: path, in: nil, descriptor: descriptor)
        if case .fail(let error)? = plan.strike(call, subject) {
            errno = error.rawValue
            return nil
        }
        return real()
    }

    private func subject(path: UnsafePointer<CChar>?, in directory: Int32?, descriptor: Int32?) -> ByteString? {
        if let path {
            let name = ByteString(bytes: UnsafeRawBufferPointer(start: path, count: strlen(path)))
            if let directory, name.bytes.first != UInt8(ascii: "/"), let base = paths[directory] { return base.appending(name) }
            return name
        }
        return descriptor.flatMap { paths[$0] }
    }

    /// The effect of the first fault due for this call, counting it; and the call in the trace.
    private func strike(_ call: SystemCall, _ subject: ByteString?) -> Fault.Effect? {
        var effect: Fault.Effect?
        for index in faults.indices where faults[index].fault.call == call && Self.matches(faults[index].fault.path, subject) {
            faults[index].seen += 1
            if faults[index].seen > faults[index].fault.skip && faults[index].struck < faults[index].fault.times {
                faults[index].struck += 1
                effect = faults[index].fault.effect
                break
            }
        }
        calls.append(Call(call: call, path: subject, injected: effect))
        return effect
    }

    private static func matches(_ wanted: ByteString?, _ subject: ByteString?) -> Bool {
        guard let wanted else { return true }
        guard let subject else { return false }
        if subject == wanted { return true }
        let tail = [UInt8(ascii: "/")] + wanted.bytes
        return subject.bytes.count > tail.count && subject.bytes.suffix(tail.count).elementsEqual(tail)
    }

    /// Remembers which path a new descriptor stands for, so that faults can name it.
    private func note(_ call: SystemCall, result: Int64, subject: ByteString?, descriptor: Int32?) {
        switch call {
        case .openat where result >= 0:
            paths[Int32(result)] = subject
        case .dup where result >= 0:
            paths[Int32(result)] = subject
        case .close:
            if let descriptor { paths[descriptor] = nil }
        default:
            break
        }
    }
}

private let planKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key, nil)
    precondition(rc == 0, "pthread_key_create: \(rc)")
    return key
}()

/// How many plans run now, on any thread.
private let armedPlans = Atomic<Int>(0)
#endif
