// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// CURATORCTL_CULL_TIMING=FILE, for the benchmark: the time from the start to the
/// first whole screen, and from each key read to the frame that answers it, with
/// the peak resident memory.
struct FrameTiming {
    let startedAt: UInt64
    private var firstFrameReported = false
    /// The last grid drawn had every cell's name and thumbnail (or its known absence).
    var screenComplete = false
    /// When the keys not answered on screen yet were read.
    private(set) var keyReadAt: UInt64?

    init(startedAt: UInt64) { self.startedAt = startedAt }

    /// Keys were read at `now`; the first of a run of keys starts the measure.
    mutating func keysRead(at now: UInt64) {
        if keyReadAt == nil { keyReadAt = now }
    }

    /// A frame was drawn: the measures it ends, each by its name and start. The first
    /// frame counts once the screen is whole (or the view empty); a key's once nothing
    /// it asked for is waited on.
    mutating func framed(viewIsEmpty: Bool, keysAnswered: Bool) -> [(name: String, since: UInt64)] {
        var ended: [(name: String, since: UInt64)] = []
        if !firstFrameReported, viewIsEmpty || screenComplete {
            firstFrameReported = true
            ended.append(("first_frame_ms", startedAt))
        }
        if let keyReadAt, keysAnswered {
            self.keyReadAt = nil
            ended.append(("key_ms", keyReadAt))
        }
        return ended
    }

    /// Appends `name=ms` to the file the environment names, if it names one.
    static func record(_ name: String, since start: UInt64) {
        guard let path = getenv("CURATORCTL_CULL_TIMING").map({ String(cString: $0) }), !path.isEmpty else { return }
        let ms = Double(MonotonicClock.nanoseconds() - start) / 1e6
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let line = "\(name)=\(ms) wall_ns=\(WallClock.nanoseconds()) max_rss_kb=\(usage.ru_maxrss)\n"
        let fd = SystemCalls.openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = line.withCString { SystemCalls.write(fd, $0, strlen($0)) }
        _ = SystemCalls.close(fd)
    }
}
