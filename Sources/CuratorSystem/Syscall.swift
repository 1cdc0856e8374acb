// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The one place libc calls go through: EINTR is retried here, failures become
/// `SystemError`s that name the call and path. EBADF and EFAULT are our bugs: trap.
///
/// EINTR is retried for as long as it comes, not a fixed number of times: it says a
/// signal handler ran before the call did anything, so the call has no result and
/// asking again is the only right answer; each retry needs a new signal, so this
/// cannot spin. A bound would make a burst of signals (a debugger's stops, a
/// profiler's ticks) fail an unrelated read or rename. Not for `close()`, which
/// Linux has done even when it reports EINTR (`FileDescriptor.close`).
@inline(__always)
public func syscall<T: FixedWidthInteger>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> T
) throws(SystemError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let err = errno
        if err == EINTR { continue }
        precondition(err != EBADF && err != EFAULT, "\(call): \(Errno(err)) is a bug")
        throw SystemError("\(call)", path: path(), errno: Errno(err))
    }
}

/// Like `syscall`, but EAGAIN comes back as nil instead of an error.
@inline(__always)
public func nonBlockingSyscall<T: FixedWidthInteger>(
    _ call: StaticString, _ body: () -> T
) throws(SystemError) -> T? {
    while true {
        let result = body()
        if result != -1 { return result }
        let err = errno
        if err == EINTR { continue }
        if err == EAGAIN || err == EWOULDBLOCK { return nil }
        precondition(err != EBADF && err != EFAULT, "\(call): \(Errno(err)) is a bug")
        throw SystemError("\(call)", errno: Errno(err))
    }
}
