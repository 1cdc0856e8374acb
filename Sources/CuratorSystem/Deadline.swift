// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A point in time on CLOCK_MONOTONIC, which a change of the wall clock neither
/// brings nearer nor pushes back: what every wait with a bound is given.
public struct Deadline: Comparable, Hashable, Sendable {
    /// Nanoseconds on CLOCK_MONOTONIC; `UInt64.max` for never.
    public let nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// No bound: wait for as long as it takes.
    public static let never = Deadline(nanoseconds: .max)

    /// Now, which has passed already.
    public static var now: Deadline { Deadline(nanoseconds: MonotonicClock.nanoseconds()) }

    /// `seconds` from now (a negative or zero span is now; an infinite one, never).
    public static func after(seconds: Double) -> Deadline {
        guard seconds < Double(UInt64.max / 2) / 1e9 else { return .never }
        let now = MonotonicClock.nanoseconds()
        let span = UInt64(max(seconds, 0) * 1e9)
        return Deadline(nanoseconds: now > UInt64.max - span ? .max : now + span)
    }

    public var hasPassed: Bool { self != .never && MonotonicClock.nanoseconds() >= nanoseconds }

    /// Seconds left (0 once passed; infinity for never).
    public var secondsLeft: Double {
        if self == .never { return .infinity }
        let now = MonotonicClock.nanoseconds()
        return now >= nanoseconds ? 0 : Double(nanoseconds - now) / 1e9
    }

    public static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The deadline as an absolute `timespec`, for pthread_cond_timedwait.
    var timespec: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
