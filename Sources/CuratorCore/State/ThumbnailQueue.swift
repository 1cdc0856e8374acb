// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// The background thumbnailer's bookkeeping: which photos still need a look, which
/// have their thumbnails (the background sizes), which failed, and the thumbnails
/// of photos that left, to be removed unless they went to the trash.
///
/// Photos a client asks for go before the background's, in the order asked. An id
/// may go stale while queued (the photo left, changed again): `take` asks for each
/// whether it is still wanted.
struct ThumbnailQueue {
    /// The sizes made of every photo: what file managers show (GNOME `large`,
    /// KDE and list views `normal`) and what a grid needs.
    static let backgroundSizes: [ThumbnailSize] = [.normal, .large]

    private var background: [Int64] = []
    private var asked: [Int64] = []
    private var askedHead = 0
    /// The ids in `asked[askedHead...]`: a client asking for 5 000 photos again and
    /// again costs a lookup each, not a walk of the list (this runs under the lock).
    private var askedSet: Set<Int64> = []
    /// Every photo waiting for a look (asked or background): a bitmap, as every
    /// photo of a first scan is in it.
    private var queued = IDSet()
    /// Sizes beyond the background's that a client asked for, by photo.
    private var extraSizes: [Int64: Set<ThumbnailSize>] = [:]
    private(set) var ready: Set<Int64> = []
    private(set) var failed: [Int64: String] = [:]
    private(set) var departed: [Departure] = []

    /// The thumbnails of a photo that left the index, by its former path.
    struct Departure: Equatable {
        var path: ByteString
        var device: UInt64
        var inode: UInt64
        /// Monotonic nanoseconds when it left.
        var at: UInt64
    }

    /// Photos still to be looked at.
    var backlog: Int { queued.count }
    var isAsked: Bool { askedHead < asked.count }

    func isReady(_ id: Int64) -> Bool { ready.contains(id) }

    /// A photo to look at in the background (new, or at start).
    mutating func enqueue(_ id: Int64) {
        if queued.insert(id) { background.append(id) }
    }

    /// A client wants `size` of `id`: it goes first.
    mutating func ask(_ id: Int64, size: ThumbnailSize) {
        if !Self.backgroundSizes.contains(size) { extraSizes[id, default: []].insert(size) }
        queued.insert(id)
        if askedSet.insert(id).inserted { asked.append(id) }
    }

    /// The photo changed or moved: what was made of it is no longer its thumbnail.
    mutating func invalidate(_ id: Int64) {
        ready.remove(id)
        failed[id] = nil
        enqueue(id)
    }

    /// The photo left the index.
    mutating func forget(_ id: Int64) {
        ready.remove(id)
        failed[id] = nil
        queued.remove(id)
        extraSizes[id] = nil
    }

    mutating func depart(_ departure: Departure) { departed.append(departure) }

    /// Departures older than `before`, taken out.
    mutating func takeDepartures(before: UInt64) -> [Departure] {
        let due = departed.filter { $0.at < before }
        if !due.isEmpty { departed.removeAll { $0.at < before } }
        return due
    }

    /// The next photo to look at and the sizes to make: an asked one first, a
    /// background one only when `background` allows. `wanted` says whether a photo
    /// is still to be made (false: dropped).
    mutating func take(background allowed: Bool, wanted: (Int64) -> Bool) -> (id: Int64, sizes: [ThumbnailSize], asked: Bool)? {
        while askedHead < asked.count {
            let id = asked[askedHead]
            askedHead += 1
            askedSet.remove(id)
            if askedHead == asked.count { asked = []; askedHead = 0 }
            guard queued.remove(id), wanted(id) else { continue }
            return (id, sizes(of: id), true)
        }
        guard allowed else { return nil }
        while let id = background.popLast() {
            guard queued.remove(id) else { continue }
            guard wanted(id) else { continue }
            if background.isEmpty { background = [] }
            return (id, sizes(of: id), false)
        }
        background = []
        return nil
    }

    /// What became of a photo taken: ready (background sizes made), failed, or to
    /// be looked at again later (the worker could not run).
    mutating func finished(_ id: Int64, _ outcome: Outcome) {
        switch outcome {
        case .ready(let made):
            if Set(Self.backgroundSizes).isSubset(of: made) { ready.insert(id) }
            extraSizes[id]?.subtract(made)
            if extraSizes[id]?.isEmpty == true { extraSizes[id] = nil }
            failed[id] = nil
        case .failed(let reason):
            failed[id] = reason
            ready.remove(id)
            extraSizes[id] = nil
        case .retry:
            enqueue(id)
        }
    }

    enum Outcome: Equatable {
        case ready(Set<ThumbnailSize>)
        case failed(String)
        case retry
    }

    private func sizes(of id: Int64) -> [ThumbnailSize] {
        (Set(Self.backgroundSizes).union(extraSizes[id] ?? [])).sorted()
    }
}
