// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The bytes a client sent that are not answered yet, handed out a request line at
/// a time. The connection takes lines only while it may answer them, so what it
/// holds is at most one read and one unfinished line: a line longer than
/// `ProtocolInfo.maxRequestBytes` is refused as soon as it is that long, and the
/// rest of it, up to its newline, is dropped as it comes.
struct RequestLines {
    enum Line: Equatable {
        case request([UInt8])
        /// A line past the limit (once per such line).
        case tooLarge
    }

    private var bytes: [UInt8] = []
    /// Where the next line starts in `bytes`.
    private var start = 0
    /// `bytes` before this hold no newline after `start` (searched already).
    private var searched = 0
    /// Dropping the rest of a line that was refused.
    private var discarding = false

    /// True when a whole line waits to be taken.
    var hasLine: Bool { bytes[searched...].contains(UInt8(ascii: "\n")) }

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        bytes.append(contentsOf: chunk)
    }

    /// The next whole line (without its newline), or nil until more bytes come.
    mutating func next() -> Line? {
        while true {
            guard let newline = bytes[searched...].firstIndex(of: UInt8(ascii: "\n")) else {
                searched = bytes.count
                return unfinished()
            }
            let line = bytes[start..<newline]
            start = newline + 1
            searched = start
            if discarding {
                discarding = false  // the end of a refused line
                continue
            }
            return line.count > ProtocolInfo.maxRequestBytes ? .tooLarge : .request(Array(line))
        }
    }

    /// No whole line is left: the unfinished one is kept, unless it is already too
    /// long (refused now) or the tail of a refused one (dropped).
    private mutating func unfinished() -> Line? {
        let pending = bytes.count - start
        if discarding || pending > ProtocolInfo.maxRequestBytes {
            let refuse = !discarding
            discarding = true
            bytes.removeAll(keepingCapacity: true)
            start = 0
            searched = 0
            return refuse ? .tooLarge : nil
        }
        if start > 0 {
            bytes.removeSubrange(0..<start)
            searched -= start
            start = 0
        }
        return nil
    }
}
