// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol

/// What a connection owes its client, in the order it is sent: answers, pushed
/// events and listings, in one queue so that lines never interleave. It counts
/// what it holds, so that neither kind can grow without bound: events past
/// `maxEventBytes` are dropped (and the client told so once) until the client has
/// read half of them, and while
/// `isFull` the connection reads no more requests (`ClientConnection`).
struct Outbox {
    /// A response or events (bytes), or a listing written as it is sent.
    enum Outgoing {
        /// `answerBytes` of `bytes` are answers, the rest events.
        case bytes([UInt8], answerBytes: Int)
        /// An answer with a file passed along with its first byte: never joined to
        /// other lines, so that the file arrives with its own answer.
        case passing([UInt8], PassedFile)
        case listing(ListingPieces)
    }

    /// Pushed events beyond this are dropped and the subscriber is told to re-list;
    /// a client that stops reading cannot grow our memory.
    static let maxEventBytes = 16 << 20
    /// Answers owed beyond this stop the reading of requests until the client has
    /// read some: a client that pipelines requests and never reads cannot grow our
    /// memory either. One answer may be larger (a long selection); the next waits.
    static let maxAnswerBytes = 1 << 20

    private(set) var queue: [Outgoing] = []
    private(set) var eventBytes = 0
    private(set) var answerBytes = 0
    /// Listings in the queue, not being sent yet. Each holds copies of the index as
    /// it was (copy-on-write: a copy of the photo table once the index changes), so
    /// at most one waits while another is sent.
    private(set) var queuedListings = 0
    private var droppingEvents = false
    /// The connection is gone: nothing more is queued.
    var closed = false

    var isEmpty: Bool { queue.isEmpty }

    /// True while the client is owed enough that its next request must wait.
    var isFull: Bool { answerBytes > Self.maxAnswerBytes || queuedListings > 0 }

    /// Queues a pushed event, or drops it when too many wait (the first dropped one
    /// becomes a `dropped` notice). False once the connection is closed.
    mutating func queueEvent(_ line: [UInt8]) -> Bool {
        if closed { return false }
        // Once dropping, go on until the client has read half of what was queued: a
        // small event fitting again between two large ones would make a notice each.
        if droppingEvents {
            if eventBytes > Self.maxEventBytes / 2 { return true }
            droppingEvents = false
        }
        if eventBytes + line.count > Self.maxEventBytes {
            droppingEvents = true
            let notice = [UInt8](Wire.event(Event(event: .dropped, message: "events were dropped because this client read too slowly; list again")))
            eventBytes += notice.count
            append(notice, answerBytes: 0)
            return true
        }
        eventBytes += line.count
        append(line, answerBytes: 0)
        return true
    }

    mutating func queueAnswer(_ bytes: [UInt8]) {
        answerBytes += bytes.count
        append(bytes, answerBytes: bytes.count)
    }

    mutating func queueAnswer(_ bytes: [UInt8], passing file: PassedFile) {
        answerBytes += bytes.count
        queue.append(.passing(bytes, file))
    }

    mutating func queueListing(_ pieces: ListingPieces) {
        queue.append(.listing(pieces))
        queuedListings += 1
    }

    /// The next thing to send, off the queue. Bytes are still counted until `sent`.
    mutating func takeNext() -> Outgoing? {
        guard !queue.isEmpty else { return nil }
        let next = queue.removeFirst()
        if case .listing = next { queuedListings -= 1 }
        return next
    }

    /// Bytes taken by `takeNext` are all sent.
    mutating func sent(_ count: Int, answerBytes answers: Int) {
        answerBytes -= answers
        eventBytes -= count - answers
    }

    /// Small lines (events come one at a time) join the last queued bytes; large
    /// ones (a selection of many photos) are queued as they are, not copied.
    private mutating func append(_ bytes: [UInt8], answerBytes answers: Int) {
        let small = 64 << 10
        if bytes.count < small, case .bytes(var last, let lastAnswers)? = queue.last, last.count < small {
            queue.removeLast()  // `last` is then the only reference: appended in place
            last.append(contentsOf: bytes)
            queue.append(.bytes(last, answerBytes: lastAnswers + answers))
        } else {
            queue.append(.bytes(bytes, answerBytes: answers))
        }
    }
}
