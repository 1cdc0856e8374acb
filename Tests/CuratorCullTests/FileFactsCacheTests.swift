// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import CuratorProtocol
import Testing

@Suite struct FileFactsCacheTests {
    static let info = PhotoInfoResult(photo: PhotoSummary(id: 3, root: "p", path: "a.JPG", size: 1, mtimeNs: 0, type: "jpg"),
                                      cameraModel: "X100", width: 6000, height: 4000)

    @Test func eachPhotoIsAskedAboutOnce() {
        var cache = FileFactsCache()
        let first = cache.lookup(3)
        #expect(first.ask)
        guard case .asked = first.facts else { Issue.record("\(first.facts)"); return }
        let second = cache.lookup(3)
        #expect(!second.ask)
        let kept = cache.answer(3, .success(Self.info))
        #expect(kept)
        let known = cache.lookup(3)
        #expect(!known.ask)
        guard case .known(let info) = known.facts else { Issue.record("\(known.facts)"); return }
        #expect(info.cameraModel == "X100")
    }

    @Test func aRefusalIsShownAndAnAnswerForAChangedPhotoDropped() {
        var cache = FileFactsCache()
        _ = cache.lookup(3)
        let kept = cache.answer(3, .failure(ProtocolError(.permissionDenied, "not yours")))
        #expect(kept)
        guard case .refused(let message) = cache.lookup(3).facts else { Issue.record("not refused"); return }
        #expect(message == "not yours")
        // The photo changed while it was asked about: the old answer is not kept.
        cache.forget(3)
        _ = cache.lookup(3)
        cache.forget(3)
        let late = cache.answer(3, .success(Self.info))
        #expect(!late)
        let again = cache.lookup(3)
        #expect(again.ask)
        // Nor an answer nobody asked for.
        let unasked = cache.answer(8, .success(Self.info))
        #expect(!unasked)
    }
}
