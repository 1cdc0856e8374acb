// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `photo.open` `preview` of a RAW over the real daemon's socket (issue 51): the
/// camera's embedded JPEG at its full size, made once by the thumbnailer; the
/// `xx-large` thumbnail when the embedded preview is smaller; never a preview of
/// an older version of the photo. The gateway streams it unchanged.
@Suite(.serialized)
struct PhotoOpenPreviewTests {
    typealias Web = WebPhotoTests

    /// Asks for the preview of `name` until it is ready; every answer before is `pending`.
    static func readyPreview(_ name: String, _ d: Daemon, _ client: Client) throws -> [String: Any] {
        var ready: [String: Any] = [:]
        try eventually(timeout: 60, "the preview of \(name)") {
            guard let id = try client.idsByPath()[name] else { return false }
            let opened = try Web.open(["photo": id, "what": "preview"], socket: d.socket)
            let state = Web.result(opened)["state"] as? String
            #expect(state == "ready" || state == "pending", "\(opened)")
            ready = opened
            return state == "ready"
        }
        return ready
    }

    @Test func aRawsPreviewIsItsEmbeddedJPEGAtFullSize() throws {
        let d = Daemon()
        try ThumbnailTests.sample(["dng", d.root() + "/big.dng", "--preview-width", "2000", "--preview-height", "1500"])
        try ThumbnailTests.sample(["dng", d.root() + "/small.dng", "--preview-width", "800", "--preview-height", "600"])
        try d.start()
        let client = try d.client()
        try ThumbnailTests.waitForBacklog(client, ready: 2, failed: 0)
        let ids = try client.idsByPath()
        let big = try #require(ids["big.dng"])

        let preview = try Self.readyPreview("big.dng", d, client)
        #expect(Web.result(preview)["content_type"] as? String == "image/jpeg", "\(preview)")
        #expect(preview["fds"] as? Int == 1 && preview["writable"] as? Bool == false)
        #expect(preview["jpeg_size"] as? [Int] == [2000, 1500], "the embedded preview's full size, not 1024: \(preview)")
        let original = try Web.open(["photo": big, "what": "original"], socket: d.socket)
        #expect(Web.result(preview)["version"] as? String == Web.result(original)["version"] as? String)

        // Smaller than xx-large: the xx-large thumbnail (a PNG) stands in.
        let small = try Self.readyPreview("small.dng", d, client)
        #expect(Web.result(small)["content_type"] as? String == "image/png" && small["head"] as? String == "89504e470d0a1a0a", "\(small)")

        // The gateway streams what it is passed, as it is.
        let web = try WebGatewayProcess(d)
        let session = try web.signIn()
        let fetched = try web.request("GET", "/photo/\(big)/preview", headers: ["Cookie": "curator_session=" + session])
        #expect(fetched.status == 200 && fetched.header("Content-Type") == "image/jpeg", "\(fetched)")
        #expect(fetched.sha256 == preview["sha256"] as? String)

        // The RAW rewritten (another preview, a minute later): the cached preview is
        // of an older version, and never answered for this one.
        try ThumbnailTests.sample(["dng", d.root() + "/big.dng", "--preview-width", "1800", "--preview-height", "1200"])
        var times = [timespec(tv_sec: time(nil) + 60, tv_nsec: 0), timespec(tv_sec: time(nil) + 60, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, d.root() + "/big.dng", &times, 0) == 0)
        let redone = try Self.readyPreview("big.dng", d, client)
        #expect(redone["jpeg_size"] as? [Int] == [1800, 1200], "the new version's preview: \(redone)")
        #expect(Web.result(redone)["content_type"] as? String == "image/jpeg")

        // Deleted for good: the preview goes with the thumbnails.
        let name = try ThumbnailTests.standardName(d.root() + "/big.dng")
        let file = ThumbnailTests.cache(d) + "/curatord-preview/" + name.dropLast(".png".count) + ".jpg"
        #expect(FileManager.default.fileExists(atPath: file), "\(file)")
        #expect(unlink(d.root() + "/big.dng") == 0)
        try eventually(timeout: 30, "the deleted RAW's preview to go") { !FileManager.default.fileExists(atPath: file) }
    }
}
