// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Glibc
import Synchronization

/// Syslog priorities, the levels journald understands.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable, Codable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    public var word: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }

    public init?(word: String) {
        guard let level = LogLevel.allCases.first(where: { $0.word == word.lowercased() }) else { return nil }
        self = level
    }
}

/// One line per event on stderr. Under journald (JOURNAL_STREAM set) each line
/// carries a `<N>` priority prefix and no timestamp; otherwise a timestamp and level.
/// Lines are written with one write(2) each, so they never interleave.
public final class Logger: Sendable {
    public static let shared = Logger()

    private let minimum = Atomic<Int>(LogLevel.info.rawValue)
    private let journald: Bool
    /// A copy of stderr, made at start: lines go there, so that fd 2 may point
    /// elsewhere for a moment (`StandardError.silenced`) without losing one.
    private let descriptor: Int32

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        journald = Self.stderrIsJournal(environment["JOURNAL_STREAM"])
        let copy = SystemCalls.fcntl(2, F_DUPFD_CLOEXEC, 3)
        descriptor = copy >= 0 ? copy : 2
    }

    /// JOURNAL_STREAM is "device:inode" of the stream systemd connected to
    /// journald. It is inherited, so it counts only while stderr is still that
    /// stream: `curatord 2>file` from a service's shell gets plain lines.
    static func stderrIsJournal(_ value: String?) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var st = stat()
        guard SystemCalls.fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
    }

    public var level: LogLevel {
        get { LogLevel(rawValue: minimum.load(ordering: .relaxed)) ?? .info }
        set { minimum.store(newValue.rawValue, ordering: .relaxed) }
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level.rawValue <= minimum.load(ordering: .relaxed) }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        let text = String(message().map { $0 == "\n" ? " " : $0 })
        let line: String
        if journald {
            line = "<\(level.rawValue)>\(text)\n"
        } else {
            line = "\(Logger.timestamp()) \(level.word): \(text)\n"
        }
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = SystemCalls.write(descriptor, buf.baseAddress! + offset, buf.count - offset)
                if n <= 0 { if n == -1 && errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    public func error(_ m: @autoclosure () -> String) { log(.error, m()) }
    public func warning(_ m: @autoclosure () -> String) { log(.warning, m()) }
    public func notice(_ m: @autoclosure () -> String) { log(.notice, m()) }
    public func info(_ m: @autoclosure () -> String) { log(.info, m()) }
    public func debug(_ m: @autoclosure () -> String) { log(.debug, m()) }

    private static func timestamp() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var t = ts.tv_sec
        var tm = tm()
        localtime_r(&t, &tm)
        return zeroPadded(Int(tm.tm_year) + 1900, width: 4) + "-" + zeroPadded(Int(tm.tm_mon) + 1, width: 2) + "-"
            + zeroPadded(Int(tm.tm_mday), width: 2) + " " + zeroPadded(Int(tm.tm_hour), width: 2) + ":"
            + zeroPadded(Int(tm.tm_min), width: 2) + ":" + zeroPadded(Int(tm.tm_sec), width: 2) + "."
            + zeroPadded(ts.tv_nsec / 1_000_000, width: 3)
    }
}

public let log = Logger.shared
