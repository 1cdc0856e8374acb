// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import CuratorSystem

/// The pieces of one listing, as its connection sends them. A large listing is
/// written on a thread of its own, a few pieces ahead of the sending: a Unix
/// socket wakes its reader "synchronously", which the scheduler answers by
/// running the reader on the writer's core, so a connection thread that wrote
/// and sent in turns kept its client waiting for its core while the other
/// core idled (a listing of every photo took 17 ms or 28 ms, by luck). The
/// connection thread only sends, and sleeps while the client reads.
final class ListingPieces: @unchecked Sendable {
    // @unchecked: `full`, `free`, `finished`, `cancelled` and `started` are guarded
    // by `condition`; `stream` is touched by one thread at a time (the writing
    // thread once started, the connection thread before that, or always for a
    // small listing).

    /// A buffer a piece is written into, then sent from, then written into again.
    final class Piece: @unchecked Sendable {
        // @unchecked: handed between the two threads under `condition` only.
        var writer: JSONWriter
        init(capacity: Int = ListingStream.pieceBytes + 4096) { writer = JSONWriter(reservingCapacity: capacity) }
    }

    /// Listings of fewer photos are written on the connection's thread: one or
    /// two pieces, not worth a thread.
    static let threadFrom = 4096
    /// Pieces written ahead of the one being sent.
    static let ahead = 2

    private var stream: ListingStream
    private let condition = Condition()
    private var full: [Piece] = []
    private var free: [Piece] = []
    private var finished = false
    private var cancelled = false
    private var started = false
    private let threaded: Bool

    init(_ stream: ListingStream) {
        self.stream = stream
        threaded = stream.photoCount >= Self.threadFrom
    }

    /// The next piece to send, written meanwhile if need be; nil once all were given.
    func next() -> Piece? {
        guard threaded else {
            if stream.isFinished { return nil }
            // Sized for the photos (a page of a view is a few kB); it grows if need be.
            let piece = free.popLast() ?? Piece(capacity: min(ListingStream.pieceBytes, 200 * stream.photoCount) + 4096)
            piece.writer.removeAll()
            stream.writeNext(to: &piece.writer)
            return piece
        }
        startIfNeeded()
        return condition.withLock { waiting in
            while full.isEmpty && !finished { waiting.wait(seconds: 1) }
            return full.isEmpty ? nil : full.removeFirst()
        }
    }

    /// A piece that was sent, to be written again.
    func recycle(_ piece: Piece) {
        guard threaded else {
            free.append(piece)
            return
        }
        condition.withLock { _ in free.append(piece) }
        condition.broadcast()
    }

    /// The client left: the writing thread stops at its next piece.
    func cancel() {
        guard threaded else { return }
        condition.withLock { _ in cancelled = true }
        condition.broadcast()
    }

    private func startIfNeeded() {
        let start = condition.withLock { _ -> Bool in
            defer { started = true }
            if !started { free = (0...Self.ahead).map { _ in Piece() } }
            return !started
        }
        guard start else { return }
        do {
            try SystemThread.detach(name: "curatord-list", stackSize: 256 << 10) { [self] in write() }
        } catch {
            // No thread to be had: write every piece here (slower, same bytes).
            log.warning("listing written without its own thread: \(error)")
            while !stream.isFinished {
                let piece = Piece()
                stream.writeNext(to: &piece.writer)
                condition.withLock { _ in full.append(piece) }
            }
            condition.withLock { _ in finished = true }
        }
    }

    private func write() {
        while true {
            let next: Piece? = condition.withLock { waiting in
                while free.isEmpty && !cancelled { waiting.wait(seconds: 1) }
                return cancelled ? nil : free.removeLast()
            }
            guard let piece = next else { return }
            piece.writer.removeAll()
            let done = stream.writeNext(to: &piece.writer)
            condition.withLock { _ in
                full.append(piece)
                if done { finished = true }
            }
            condition.broadcast()
            if done { return }
        }
    }
}
