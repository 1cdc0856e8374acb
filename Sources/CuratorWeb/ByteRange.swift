// SPDX-License-Identifier: GPL-2.0-or-later

/// One range of a `Range: bytes=…` header, resolved against a file's length. Only a
/// single range is served (a video's or a download's resumption asks for one);
/// several, or a unit other than bytes, get the whole file, as RFC 9110 allows.
struct ByteRange: Sendable, Equatable {
    let offset: UInt64
    let length: UInt64

    enum Resolution: Equatable {
        /// No usable Range: the whole file.
        case whole
        case partial(ByteRange)
        /// A range that starts past the end: 416.
        case unsatisfiable
    }

    static func resolve(_ header: String?, fileLength: UInt64) -> Resolution {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .whole }
        let first = spec[0].trimmingSpaces, last = spec[1].trimmingSpaces
        if first.isEmpty {
            // bytes=-N: the last N bytes.
            guard let suffix = UInt64(last), suffix > 0 else { return last == "0" ? .unsatisfiable : .whole }
            guard fileLength > 0 else { return .unsatisfiable }
            let length = min(suffix, fileLength)
            return .partial(ByteRange(offset: fileLength - length, length: length))
        }
        guard let start = UInt64(first) else { return .whole }
        guard start < fileLength else { return .unsatisfiable }
        var end = fileLength - 1
        if !last.isEmpty {
            guard let asked = UInt64(last), asked >= start else { return .whole }
            end = min(asked, end)
        }
        return .partial(ByteRange(offset: start, length: end - start + 1))
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
