// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// Pairing what a share's poll saw vanish with what it saw come: only where certain.
@Suite struct HeldArrivalsTests {
    static func print(_ size: Int64, _ mtime: Int64 = 1_700_000_000_000_000_000, _ type: PhotoType = .jpeg) -> FileFingerprint {
        FileFingerprint(size: size, mtimeNs: mtime, type: type)
    }

    @Test func oneCandidateEachWayIsAMove() {
        let pairs = HeldArrivals.pairs(vanished: [Self.print(10), Self.print(20)], arrivals: [Self.print(30), Self.print(20)])
        #expect(pairs.map(\.vanished) == [1] && pairs.map(\.arrival) == [1])
    }

    @Test func twoCandidatesEitherWayAreNotGuessed() {
        // A rename and a copy with the same size and time: which one is the photo?
        #expect(HeldArrivals.pairs(vanished: [Self.print(10)], arrivals: [Self.print(10), Self.print(10)]).isEmpty)
        // Two look-alike photos renamed.
        #expect(HeldArrivals.pairs(vanished: [Self.print(10), Self.print(10)], arrivals: [Self.print(10), Self.print(10)]).isEmpty)
        // A look-alike gone beside the one renamed.
        #expect(HeldArrivals.pairs(vanished: [Self.print(10), Self.print(10)], arrivals: [Self.print(10)]).isEmpty)
        // The ambiguity of one fingerprint does not stop another's pairing.
        let pairs = HeldArrivals.pairs(vanished: [Self.print(10), Self.print(10), Self.print(7)],
                                       arrivals: [Self.print(10), Self.print(7)])
        #expect(pairs.map(\.vanished) == [2] && pairs.map(\.arrival) == [1])
    }

    @Test func sizeTimeAndTypeMustAllMatch() {
        #expect(HeldArrivals.pairs(vanished: [Self.print(10, 5)], arrivals: [Self.print(10, 6)]).isEmpty)
        #expect(HeldArrivals.pairs(vanished: [Self.print(10, 5)], arrivals: [Self.print(11, 5)]).isEmpty)
        #expect(HeldArrivals.pairs(vanished: [Self.print(10, 5, .jpeg)], arrivals: [Self.print(10, 5, .png)]).isEmpty)
        #expect(HeldArrivals.pairs(vanished: [], arrivals: [Self.print(10)]).isEmpty)
    }
}
