// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc
import Testing

/// EINTR is retried for as long as it comes (issue 11 point 21): it means a signal
/// arrived before the call did anything, so the call has no result yet; a bounded
/// retry would turn any burst of signals into a failure of an unrelated call.
struct SyscallTests {
    /// A call that is interrupted `times` times, then returns `value`.
    final class Interrupted: @unchecked Sendable {
        // @unchecked: used by one test's thread only.
        var left: Int
        var calls = 0
        init(times: Int) { left = times }
        func call<T: FixedWidthInteger>(_ value: T) -> T {
            calls += 1
            if left > 0 {
                left -= 1
                errno = EINTR
                return -1
            }
            return value
        }
    }

    @Test func eintrIsRetriedUntilTheCallAnswers() throws {
        let call = Interrupted(times: 5)
        #expect(try syscall("read") { call.call(Int32(7)) } == 7)
        #expect(call.calls == 6)

        let nonBlocking = Interrupted(times: 5)
        #expect(try nonBlockingSyscall("recv") { nonBlocking.call(Int(3)) } == 3)
        #expect(nonBlocking.calls == 6)
    }

    @Test func otherErrorsAreThrownWithTheCallAndPath() {
        do {
            _ = try syscall("open", path: "/nowhere") { () -> Int32 in
                errno = ENOENT
                return -1
            }
            Issue.record("no error thrown")
        } catch {
            #expect(error.errno == .noEntry)
            #expect("\(error)".contains("open"))
            #expect("\(error)".contains("/nowhere"))
        }
    }
}
