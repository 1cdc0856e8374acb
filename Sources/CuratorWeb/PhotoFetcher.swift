// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// `GET /photo/<id>/<what>`: asks the daemon for the file (`photo.open`), which
/// checks the user's right to it and passes it open, and streams it. The gateway
/// itself opens no photo. Conditional and range requests are answered here, from
/// the daemon's version of the photo (its mtime and size).
struct PhotoFetcher: Sendable {
    let pool: DaemonPool
    /// Files kept from earlier answers to the same daemon user, `owner`.
    var cache: OpenFileCache? = nil
    var owner = ""
    /// How long a thumbnail being made is waited for before the browser is told to
    /// come back (an `<img>` shows nothing meanwhile, and retries nothing).
    var pendingWait: Double = 20

    /// What the request carried that decides the answer.
    struct Conditions: Sendable {
        var ifNoneMatch: String?
        var range: String?
        var ifRange: String?
        /// The `v` query argument: the version the page saw in a listing, which makes
        /// the address name bytes that never change.
        var version: String?
    }

    enum Outcome {
        case answer(HTTPAnswer)
        case file(FileAnswer)
    }

    /// A year: the longest a cache is asked to keep anything.
    static let immutable = "private, max-age=31536000, immutable"
    /// An address without the version: kept, but asked about again each time (a 304).
    static let revalidate = "private, no-cache"

    /// The answer from a file kept for this versioned address, or nil.
    func cached(_ address: PhotoAddress, _ conditions: Conditions) -> Outcome? {
        guard let key = key(address, conditions), let cache, let (file, opened) = cache.take(key) else { return nil }
        return serve(file, opened, address, conditions)
    }

    /// Only a versioned address is kept: its bytes are the daemon's answer for that
    /// version, and a file that is no longer it is never served from the cache.
    private func key(_ address: PhotoAddress, _ conditions: Conditions) -> OpenFileCache.Key? {
        conditions.version.map { OpenFileCache.Key(owner: owner, photo: address.photo, what: address.what.name, version: $0) }
    }

    func fetch(_ address: PhotoAddress, _ conditions: Conditions) -> Outcome {
        if let answer = cached(address, conditions) { return answer }
        let key = key(address, conditions)
        let deadline = Deadline.after(seconds: pendingWait)
        // Finely for a second: a screen JPEG is made within it while a loupe waits,
        // and a coarse poll would add its step to that wait; a longer wait (a busy
        // thumbnailer) backs off.
        let fine = Deadline.after(seconds: 1)
        var pause = 0.02
        while true {
            let line: [UInt8]
            let passed: FileDescriptor?
            do {
                (line, passed) = try pool.exchange { id in DaemonPool.line(PhotoOpenRequest(photo: address.photo, what: address.what), id: id) }
            } catch {
                return .answer(error.answer)
            }
            guard let answer = try? Self.decoder.decode(Answer.self, from: Data(line)), answer.ok == true,
                  let result = answer.result else {
                if let passed { try? passed.close() }
                return .answer(HTTPAnswer(status: APIForwarder.status(of: line), json: line))
            }
            switch result.state {
            case .ready:
                guard let passed else {
                    return .answer(GatewayError(502, GatewayError.daemonUnavailable, "curatord passed no file with photo \(address.photo)").answer)
                }
                let status: FileStatus
                do {
                    status = try FileStatus.of(descriptor: passed)
                } catch {
                    try? passed.close()
                    return .answer(GatewayError(502, GatewayError.daemonUnavailable, "the file of photo \(address.photo): \(error)").answer)
                }
                let opened = OpenFileCache.Opened(contentType: result.contentType ?? "application/octet-stream",
                                                  version: result.version ?? "", status: status)
                if let key, let cache, !opened.version.isEmpty, opened.version == key.version {
                    cache.keep(key, file: passed, opened: opened)
                }
                return serve(passed, opened, address, conditions)
            case .pending:
                if let passed { try? passed.close() }
                guard deadline.secondsLeft > pause else {
                    var answer = GatewayError(503, GatewayError.notReady, "the thumbnail of photo \(address.photo) is being made; ask again").answer
                    answer.headers.append(("Retry-After", "2"))
                    return .answer(answer)
                }
                usleep(UInt32(pause * 1_000_000))
                if fine.secondsLeft <= 0 { pause = min(pause * 1.5, 0.5) }
            case .failed, .placeholder:
                if let passed { try? passed.close() }
                return .answer(GatewayError(404, GatewayError.notFound, result.reason ?? "photo \(address.photo) has no \(address.what.name)").answer)
            }
        }
    }

    private static let decoder = Wire.makeDecoder()

    private struct Answer: Decodable {
        var ok: Bool?
        var result: PhotoOpenResult?
    }

    private func serve(_ file: FileDescriptor, _ opened: OpenFileCache.Opened, _ address: PhotoAddress,
                       _ conditions: Conditions) -> Outcome {
        let status = opened.status
        let version = opened.version
        let tag = "\"\(address.photo)-\(address.what.name)-\(version)\""
        let cache = !version.isEmpty && conditions.version == version ? Self.immutable : Self.revalidate
        var headers: [(name: String, value: String)] = [("ETag", tag), ("Cache-Control", cache), ("Accept-Ranges", "bytes")]
        if Self.matches(conditions.ifNoneMatch, tag) {
            try? file.close()
            return .answer(HTTPAnswer(status: 304, contentType: opened.contentType, body: [], headers: headers))
        }
        let length = UInt64(max(0, status.size))
        // If-Range: the range only of the bytes the client has part of.
        let rangeHeader = conditions.ifRange.map { $0 == tag } ?? true ? conditions.range : nil
        switch ByteRange.resolve(rangeHeader, fileLength: length) {
        case .whole:
            return .file(FileAnswer(status: 200, descriptor: file, offset: 0, length: length,
                                    contentType: opened.contentType, headers: headers))
        case .partial(let range):
            headers.append(("Content-Range", "bytes \(range.offset)-\(range.offset + range.length - 1)/\(length)"))
            return .file(FileAnswer(status: 206, descriptor: file, offset: range.offset, length: range.length,
                                    contentType: opened.contentType, headers: headers))
        case .unsatisfiable:
            try? file.close()
            var answer = GatewayError(416, GatewayError.rangeNotSatisfiable, "photo \(address.photo) has \(length) bytes").answer
            answer.headers = headers + [("Content-Range", "bytes */\(length)")]
            return .answer(answer)
        }
    }

    /// If-None-Match: `*`, or one of its tags (weak or strong: a 304 may use weak
    /// comparison).
    static func matches(_ header: String?, _ tag: String) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var value = candidate.drop { $0 == " " }
            while value.last == " " { value.removeLast() }
            if value == "*" { return true }
            if value.hasPrefix("W/") { value = value.dropFirst(2) }
            if value == tag { return true }
        }
        return false
    }
}
