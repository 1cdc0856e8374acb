// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails

/// The background thumbnailer's bookkeeping: which photos still need a look, which
/// have their thumbnails (the background sizes), which failed, and the thumbnails
/// of photos that left, to be removed unless they went to the trash.
///
/// Photos a client asks for go before the background's, in the order asked. An id
/// may go stale while queued (the photo left, changed again): `take` asks for each
/// whether it is still wanted. Both lines are kept per root, so that the photos of
/// a root whose background work waits (it is scanned, a batch holds it, its server
/// hangs) are passed over at no cost while other roots' are made.
struct ThumbnailQueue {
    /// The sizes made of every photo: what file managers show (GNOME `large`,
    /// KDE and list views `normal`) and what a grid needs.
    static let backgroundSizes: [ThumbnailSize] = [.normal, .large]

    /// By root: a stack, the newest photos first (runs of ids, `IDStack`: a first
    /// scan queues every photo in id order).
    private var background: [Int32: IDStack] = [:]
    /// By root, in the order asked.
    private var asked: [Int32: AskedLine] = [:]
    /// The ids in every asked line: a client asking for 5 000 photos again and
    /// again costs a lookup each, not a walk of the list (this runs under the lock).
    private var askedSet: Set<Int64> = []

    /// One root's asked photos, first in first out.
    private struct AskedLine {
        var ids: [Int64] = []
        var head = 0
        var isEmpty: Bool { head == ids.count }

        mutating func append(_ id: Int64) { ids.append(id) }

        mutating func pop() -> Int64? {
            guard head < ids.count else { return nil }
            let id = ids[head]
            head += 1
            if head == ids.count { self = AskedLine() }
            return id
        }
    }
    /// Every photo waiting for a look (asked or background): a bitmap, as every
    /// photo of a first scan is in it.
    private var queued = IDSet()
    /// Sizes beyond the background's that a client asked for, by photo.
    private var extraSizes: [Int64: Set<ThumbnailSize>] = [:]
    /// A bitmap too: once the background has looked at every photo, every photo is
    /// in it (a `Set<Int64>` of a million was 17-34 MB resident, after a restart too).
    private(set) var ready = IDSet()
    private(set) var failed: [Int64: String] = [:]
    private(set) var departed: [Departure] = []
    /// Photos whose previews a client asked for (`photo.open` `preview`, `screen`).
    private var askedPreviews: [Int64: Set<PreviewKind>] = [:]
    /// Photos of which, as they are now, no preview of a kind is made (a full one:
    /// no embedded one large enough, the `xx-large` thumbnail stands in; a screen
    /// one: the photo is no larger than a screen). Known until the photo changes;
    /// after a restart, the worker is asked again once.
    private var previewless: [PreviewKind: Set<Int64>] = [:]

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
    var isAsked: Bool { asked.values.contains { !$0.isEmpty } }

    func isReady(_ id: Int64) -> Bool { ready.contains(id) }

    /// A photo of `root` to look at in the background (new, or at start).
    mutating func enqueue(_ id: Int64, root: Int32 = 0) {
        if queued.insert(id) { background[root, default: IDStack()].append(id) }
    }

    /// A client wants `size` of `id` (a photo of `root`): it goes first.
    mutating func ask(_ id: Int64, root: Int32 = 0, size: ThumbnailSize) {
        if !Self.backgroundSizes.contains(size) { extraSizes[id, default: []].insert(size) }
        queued.insert(id)
        if askedSet.insert(id).inserted { asked[root, default: AskedLine()].append(id) }
    }

    /// A client wants the preview of `kind` of `id` (a photo of `root`): it goes first.
    mutating func askPreview(_ id: Int64, root: Int32 = 0, kind: PreviewKind = .full) {
        askedPreviews[id, default: []].insert(kind)
        queued.insert(id)
        if askedSet.insert(id).inserted { asked[root, default: AskedLine()].append(id) }
    }

    /// The previews the work on `id` is to make too.
    func wantedPreviews(_ id: Int64) -> Set<PreviewKind> { askedPreviews[id] ?? [] }

    /// Whether no preview of `kind` is made of `id` as it is now.
    func hasNoPreview(_ id: Int64, kind: PreviewKind = .full) -> Bool { previewless[kind]?.contains(id) == true }

    /// The worker made or found the preview of `kind` of `id` (`available`), or
    /// found that none is made.
    mutating func previewFinished(_ id: Int64, kind: PreviewKind = .full, available: Bool) {
        askedPreviews[id]?.remove(kind)
        if askedPreviews[id]?.isEmpty == true { askedPreviews[id] = nil }
        if available { previewless[kind]?.remove(id) } else { previewless[kind, default: []].insert(id) }
    }

    private mutating func forgetPreviews(_ id: Int64) {
        for kind in PreviewKind.allCases { previewless[kind]?.remove(id) }
    }

    /// The photo changed or moved: what was made of it is no longer its thumbnail.
    mutating func invalidate(_ id: Int64, root: Int32 = 0) {
        ready.remove(id)
        failed[id] = nil
        forgetPreviews(id)
        enqueue(id, root: root)
    }

    /// The photo left the index.
    mutating func forget(_ id: Int64) {
        ready.remove(id)
        failed[id] = nil
        queued.remove(id)
        extraSizes[id] = nil
        askedPreviews[id] = nil
        forgetPreviews(id)
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
        take(asked: { _ in true }, background: { _ in allowed }, wanted: wanted)
    }

    /// The same, root by root: asked photos of the roots `asked` allows (in root
    /// order), then the newest background photo of the roots `background` allows.
    /// The other roots' photos stay queued, untouched.
    mutating func take(asked askedAllowed: (Int32) -> Bool, background allowed: (Int32) -> Bool,
                       wanted: (Int64) -> Bool) -> (id: Int64, sizes: [ThumbnailSize], asked: Bool)? {
        for root in asked.keys.sorted() where askedAllowed(root) {
            while let id = asked[root]?.pop() {
                askedSet.remove(id)
                guard queued.remove(id), wanted(id) else { continue }
                if asked[root]?.isEmpty == true { asked[root] = nil }
                return (id, sizes(of: id), true)
            }
            asked[root] = nil
        }
        while let root = background.filter({ allowed($0.key) && !$0.value.isEmpty })
            .max(by: { ($0.value.last ?? 0, $1.key) < ($1.value.last ?? 0, $0.key) })?.key {
            while let id = background[root]?.popLast() {
                guard queued.remove(id), wanted(id) else { continue }
                if background[root]?.isEmpty == true { background[root] = nil }
                return (id, sizes(of: id), false)
            }
            background[root] = nil
        }
        return nil
    }

    /// What became of a photo taken: ready (background sizes made), failed, or to
    /// be looked at again later (the worker could not run).
    mutating func finished(_ id: Int64, _ outcome: Outcome, root: Int32 = 0) {
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
            askedPreviews[id] = nil
        case .retry:
            enqueue(id, root: root)
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
