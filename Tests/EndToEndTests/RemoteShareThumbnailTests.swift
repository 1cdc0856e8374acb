// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch.RemoteShare {
    /// Thumbnails are made on two lanes, the local roots' and the shares', and a
    /// root's background work waits for its own scan, capture times and batches
    /// only: a share whose server hangs with capture times still to read (and photos
    /// still to thumbnail) holds back nothing of a local root, whose new photos get
    /// their thumbnails at once; the share's are made once it answers again.
    @Test func aHungShareHoldsBackNoLocalThumbnails() throws {
        let hung = try Self.hungShareBesideALocalRoot()
        defer { hung.end() }
        let (daemon, share, c) = (hung.daemon, hung.share, hung.client)

        // New local photos, real JPEGs: their thumbnails come while the share hangs.
        let names = ["l0.jpg", "l1.jpg", "l2.jpg"]
        for name in names {
            try ThumbnailTests.sample(["marker", daemon.root("pics") + "/" + name, "--width", "320", "--height", "240"])
        }
        _ = try c.result(["cmd": "sync", "root": "pics", "timeout_ms": 3000], timeout: 10)
        let ids = try c.idsByPath(["root": "pics"])
        let local = try names.map { try #require(ids[$0], "\($0) is indexed") }
        try daemon.explainingFailures {
            try eventually(timeout: 20, "the local photos' thumbnails while the share hangs") {
                let listed = try c.photos(["root": "pics", "fields": ["id", "thumbnail"]])
                return Set(listed.filter { $0["thumbnail"] as? Bool == true }.compactMap { $0["id"] as? Int }) == Set(local)
            }
        }
        for name in names {
            let thumbnail = ThumbnailTests.cache(daemon) + "/normal/" + (try ThumbnailTests.standardName(daemon.root("pics") + "/" + name))
            #expect(Files.exists(thumbnail), "\(name)'s thumbnail is not in the cache")
        }
        #expect((try c.rootStatus("nas")["capture_pending"] as? Int ?? 0) > 0, "the share's photos still wait")

        // The server answers again: the share's photos are looked at too.
        share.resume()
        try daemon.explainingFailures {
            try eventually(timeout: 120, "the share's thumbnails after it answers again") {
                try ThumbnailTests.status(c)["backlog"] as? Int == 0
            }
        }
    }
}
