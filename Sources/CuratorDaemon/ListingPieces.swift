// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import CuratorSystem
import Synchronization

/// The pieces of one listing, as its connection sends them. A large listing is
/// written by a job on a thread of its own, a few pieces ahead of the sending: a
/// Unix socket wakes its reader "synchronously", which the scheduler answers by
/// running the reader on the writer's core, so a connection thread that wrote
/// and sent in turns kept its client waiting for its core while the other
/// core idled (a listing of every photo took 17 ms or 28 ms, by luck). The
/// connection thread only sends, and sleeps while the client reads.
final class ListingPieces: Sendable {
    /// A buffer a piece is written into, then sent from, then written into again.
    /// It is with the writer or with the sender, never both (the queues hand it
    /// over); its lock is never contended.
    final class Piece: Sendable {
        private let writer: Mutex<JSONWriter>
        init(capacity: Int = ListingStream.pieceBytes + 4096) { writer = Mutex(JSONWriter(reservingCapacity: capacity)) }

        /// Writes the stream's next piece into this buffer, emptied first; true once the stream is finished.
        func write(from stream: inout ListingStream) -> Bool {
            writer.withLock { writer in
                writer.removeAll()
                return stream.writeNext(to: &writer)
            }
        }

        var written: Int { writer.withLock { $0.written } }

        func withBytes<R: Sendable>(_ body: @Sendable (UnsafeRawBufferPointer) -> R) -> R {
            writer.withLock { $0.withBytes(body) }
        }
    }

    /// Listings of fewer photos are written on the connection's thread: one or
    /// two pieces, not worth a thread.
    static let threadFrom = 4096
    /// Pieces written ahead of the one being sent.
    static let ahead = 2
    /// The writers' threads: one per large listing being sent (a connection sends
    /// one listing at a time, so `max_clients` bounds them), kept a few seconds
    /// for the next.
    static let writers = WorkerPool(name: "curatord-list", threads: .max, stackSize: 256 << 10, keepIdleSeconds: 5)

    /// What the connection's thread writes and sends in turn (a small listing), or
    /// the stream until a writer takes it (a large one).
    private let pending: Mutex<(stream: ListingStream, spare: Piece?, started: Bool)>
    private let threaded: Bool
    /// Pieces written, in order, for the connection to send; closed after the last.
    private let full = BlockingQueue<Piece>()
    /// Pieces sent, for the writer to write again; closed when the client leaves.
    private let free = BlockingQueue<Piece>()

    init(_ stream: ListingStream) {
        threaded = stream.photoCount >= Self.threadFrom
        pending = Mutex((stream, nil, false))
    }

    /// The next piece to send, written meanwhile if need be; nil once all were given.
    func next() -> Piece? {
        guard threaded else {
            return pending.withLock { pending -> Piece? in
                if pending.stream.isFinished { return nil }
                // Sized for the photos (a page of a view is a few kB); it grows if need be.
                let piece = pending.spare ?? Piece(capacity: min(ListingStream.pieceBytes, 200 * pending.stream.photoCount) + 4096)
                pending.spare = nil
                _ = piece.write(from: &pending.stream)
                return piece
            }
        }
        startIfNeeded()
        return full.pop()
    }

    /// A piece that was sent, to be written again.
    func recycle(_ piece: Piece) {
        guard threaded else {
            pending.withLock { $0.spare = piece }
            return
        }
        free.push(piece)
    }

    /// The client left: the writer stops at its next piece.
    func cancel() {
        guard threaded else { return }
        free.close()
        full.close()
    }

    private func startIfNeeded() {
        let stream = pending.withLock { pending -> ListingStream? in
            defer { pending.started = true }
            return pending.started ? nil : pending.stream
        }
        guard let stream else { return }
        let (full, free) = (full, free)
        do throws(WorkerError) {
            try Self.writers.submit(whenFull: .refuse) { Self.write(stream, from: free, into: full) }
            for _ in 0...Self.ahead { free.push(Piece()) }
        } catch {
            // No thread to be had: write every piece here (slower, same bytes).
            log.warning("listing written without its own thread: \(error)")
            var stream = stream
            while !stream.isFinished {
                let piece = Piece()
                _ = piece.write(from: &stream)
                full.push(piece)
            }
            full.close()
        }
    }

    /// The writer's job: a piece into each free buffer, until the stream is finished
    /// or the client leaves.
    private static func write(_ stream: ListingStream, from free: BlockingQueue<Piece>, into full: BlockingQueue<Piece>) {
        var stream = stream
        defer { full.close() }
        while let piece = free.pop(), !free.isClosed {
            let done = piece.write(from: &stream)
            guard full.push(piece), !done else { return }
        }
    }
}
