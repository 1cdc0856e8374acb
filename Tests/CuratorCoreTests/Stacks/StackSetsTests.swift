// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The pure stack search: which frames make a burst, which is kept, and what
/// "all but the keeper" selects.
@Suite struct StackSetsTests {
    private func member(_ group: Int64, camera: UInt32 = 1, at ms: Int64, hash: UInt64 = 0xF0F0_F0F0_F0F0_F0F0,
                        sharpness: Double = 100, rating: Int? = nil, path: String? = nil) -> StackMember {
        StackMember(groupID: group, camera: camera, instantMs: ms, dHash: hash, sharpness: sharpness, rating: rating, rootOrder: 0,
                    path: ByteString(path ?? "p\(group).jpg"))
    }

    private func groups(_ stacks: [Stack]) -> [Set<Int64>] { stacks.map { Set($0.members.map(\.groupID)) } }

    @Test func framesOfOneCameraSecondsApartThatLookAlikeAreOneStack() {
        let base: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let members = [
            member(1, at: 0), member(2, at: 400, hash: base ^ 0b111), member(3, at: 900, hash: base ^ 0b1_1000),
            // Another camera at the same moment, the same scene.
            member(4, camera: 2, at: 300),
            // The same camera minutes later.
            member(5, at: 300_000),
            // Another scene a second after the burst.
            member(6, at: 1_900, hash: ~base),
            // Alike, but too long after the frame before.
            member(7, at: 900 + StackSets.windowMs + 1),
        ]
        #expect(groups(StackSets.find(members)) == [[1, 2, 3]])
    }

    @Test func theDistanceIsInclusiveAndAFrameJoinsWhenItLooksLikeAnyFrame() {
        let base: UInt64 = 0
        let far = base ^ ((1 << UInt64(StackSets.distance)) - 1)               // exactly the distance from 1
        let beyond = base ^ ((1 << UInt64(StackSets.distance + 1)) - 1)        // one more bit
        #expect(groups(StackSets.find([member(1, at: 0, hash: base), member(2, at: 100, hash: far)])) == [[1, 2]])
        #expect(StackSets.find([member(1, at: 0, hash: base), member(2, at: 100, hash: beyond)]).isEmpty)
        // 3 is too far from 2 but alike 1: it joins.
        let chain = [member(1, at: 0, hash: base), member(2, at: 100, hash: far), member(3, at: 200, hash: base ^ 1 << 63)]
        #expect(groups(StackSets.find(chain)) == [[1, 2, 3]])
    }

    @Test func theKeeperIsTheHighestRatedThenTheSharpestThenTheFirst() {
        let sharp = StackSets.find([member(1, at: 0, sharpness: 10), member(2, at: 100, sharpness: 400), member(3, at: 200, sharpness: 50)])
        #expect(sharp.first?.keeper.groupID == 2 && sharp.first?.keeperReason == .sharpest)
        #expect(sharp.first?.id == 1)
        let rated = StackSets.find([member(1, at: 0, sharpness: 10, rating: 4), member(2, at: 100, sharpness: 400, rating: 2)])
        #expect(rated.first?.keeper.groupID == 1 && rated.first?.keeperReason == .rated)
        let tie = StackSets.find([member(1, at: 100), member(2, at: 0)])
        #expect(tie.first?.keeper.groupID == 2 && tie.first?.keeperReason == .first)
    }

    @Test func theRestIsNeverTheKeeperNorProtectedAndStacksLeftAloneAreCounted() {
        let stacks = StackSets.find([
            member(1, at: 0, sharpness: 500), member(2, at: 100), member(3, at: 200),                    // 1 kept
            member(11, at: 10_000, sharpness: 500), member(12, at: 10_100),                              // 12 protected
            member(21, at: 20_000, sharpness: 500), member(22, at: 20_100),                              // 21 selected
            member(31, at: 30_000, sharpness: 500), member(32, at: 30_100),                              // 32 not in view
        ])
        #expect(stacks.count == 4)
        let choice = StackRest.choose(stacks, isProtected: { $0 == 12 }, inView: { $0 != 32 }, isSelected: { $0 == 21 })
        #expect(choice.groupIDs.sorted() == [2, 3])
        #expect(choice.setsChosen == 1)
        #expect(choice.leftAlone == [.protected: 1, .keeperSelected: 1, .outsideView: 1])
    }

    /// A photo that records no camera is of an unknown one, equal to no other: alike
    /// and half a second apart, two such photos are still no burst, nor do they join a
    /// known camera's burst of the same moment.
    @Test func photosThatRecordNoCameraAreInNoStack() {
        let none = CameraKey.unknown
        #expect(StackSets.find([member(1, camera: none, at: 0), member(2, camera: none, at: 500)]).isEmpty)
        let mixed = [member(1, camera: none, at: 0), member(2, at: 100), member(3, camera: none, at: 200), member(4, at: 300)]
        #expect(groups(StackSets.find(mixed)) == [[2, 4]])
    }

    @Test func theCameraKeyTellsBodiesApartAndIsZeroWithoutACamera() {
        let a = CameraKey.key(make: "Canon", model: "Canon EOS R6", serial: "1")
        let b = CameraKey.key(make: "Canon", model: "Canon EOS R6", serial: "2")
        #expect(a != b && a != 0 && b != 0)
        #expect(CameraKey.key(make: "Canon", model: "Canon EOS R6", serial: nil) == CameraKey.key(make: "Canon", model: "Canon EOS R6", serial: nil))
        #expect(CameraKey.key(make: nil, model: nil, serial: "3") == 0)
    }
}
