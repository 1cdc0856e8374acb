// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A listed group as the stack search sees it: its shown photo's camera, capture
/// instant and measures.
struct StackMember: Hashable, Sendable {
    var groupID: Int64
    var camera: UInt32
    /// The capture time to the millisecond (the camera's clock, as EXIF has it).
    var instantMs: Int64
    var dHash: UInt64
    var sharpness: Double
    /// The photo's rating when the index has one (nil: unrated).
    var rating: Int?
    /// Its root's place in the configuration, then its path: the last tie-break.
    var rootOrder: Int
    var path: ByteString
}

/// Why a stack's keeper is the one kept.
enum StackKeeperReason: String, Sendable, Hashable {
    /// Rated higher than every other frame.
    case rated
    /// Not rated lower, and sharper than every other (variance of the Laplacian).
    case sharpest
    /// Ties on both: the first taken.
    case first

    /// The listing writes it from static bytes.
    var staticWireName: StaticString {
        switch self {
        case .rated: "rated"
        case .sharpest: "sharpest"
        case .first: "first"
        }
    }
}

/// A burst: frames of one known camera, each taken at most `StackSets.window` after the
/// one before, each looking like (`StackSets.distance`) at least one other.
struct Stack: Hashable, Sendable {
    /// The smallest group id of the stack: stable while its members stay.
    var id: Int64
    /// The keeper first, then the others by the keeper order.
    var members: [StackMember]
    var keeperReason: StackKeeperReason

    var keeper: StackMember { members[0] }
    var others: ArraySlice<StackMember> { members.dropFirst() }
}

/// Finds the stacks among members. Pure: the caller gives each listed group's
/// camera, instant and measures. docs/PROTOCOL.md states the defaults.
enum StackSets {
    /// Two frames look alike when their difference hashes differ in at most this
    /// many of their 64 bits.
    static let distance = 12
    /// Frames of a burst follow each other within this many milliseconds.
    static let windowMs: Int64 = 2_000

    static func find(_ members: [StackMember], distance: Int = Self.distance, windowMs: Int64 = Self.windowMs) -> [Stack] {
        let sorted = members.sorted { a, b in
            if a.camera != b.camera { return a.camera < b.camera }
            if a.instantMs != b.instantMs { return a.instantMs < b.instantMs }
            return nameOrder(a, b)
        }
        var stacks: [Stack] = []
        var run: [StackMember] = []
        func close() {
            if run.count > 1 { stacks.append(stack(of: run)) }
            run.removeAll(keepingCapacity: true)
        }
        for member in sorted {
            // A photo that records no camera is of an unknown one, equal to none: two
            // such photos seconds apart (scans, screenshots, edits of two cameras) are
            // no burst however alike they look.
            if let last = run.last, member.camera != CameraKey.unknown, last.camera == member.camera,
               member.instantMs - last.instantMs <= windowMs,
               run.contains(where: { hamming($0.dHash, member.dHash) <= distance }) {
                run.append(member)
            } else {
                close()
                run.append(member)
            }
        }
        close()
        return stacks.sorted { nameOrder($0.keeper, $1.keeper) }
    }

    static func hamming(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }

    /// The keeper order: the highest rated, then the sharpest, then the first taken
    /// (then by name), so the choice is total and the same on every run.
    static func keeperOrder(_ a: StackMember, _ b: StackMember) -> Bool {
        let (ra, rb) = (a.rating ?? Int.min, b.rating ?? Int.min)
        if ra != rb { return ra > rb }
        if a.sharpness != b.sharpness { return a.sharpness > b.sharpness }
        if a.instantMs != b.instantMs { return a.instantMs < b.instantMs }
        return nameOrder(a, b)
    }

    static func nameOrder(_ a: StackMember, _ b: StackMember) -> Bool {
        if a.rootOrder != b.rootOrder { return a.rootOrder < b.rootOrder }
        if a.path != b.path { return a.path < b.path }
        return a.groupID < b.groupID
    }

    private static func stack(of run: [StackMember]) -> Stack {
        let ordered = run.sorted(by: keeperOrder)
        let (kept, next) = (ordered[0], ordered[1])
        let reason: StackKeeperReason = (kept.rating ?? Int.min) != (next.rating ?? Int.min) ? .rated
            : kept.sharpness != next.sharpness ? .sharpest : .first
        return Stack(id: run.map(\.groupID).min() ?? 0, members: ordered, keeperReason: reason)
    }
}
