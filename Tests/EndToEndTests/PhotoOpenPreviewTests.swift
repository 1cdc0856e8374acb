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
    static func readyPreview(_ name: String, _ d: Daemon, _ client: Client, what: String = "preview") throws -> [String: Any] {
        var ready: [String: Any] = [:]
        try eventually(timeout: 60, "the \(what) of \(name)") {
            guard let id = try client.idsByPath()[name] else { return false }
            let opened = try Web.open(["photo": id, "what": what], socket: d.socket)
            #expect(Web.result(opened)["what"] as? String == what, "\(opened)")
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

    /// `screen`: a large JPEG's is made once at the screen's size, upright; a small
    /// one's is the file itself; it goes when the photo does.
    @Test func aLargeJPEGsScreenPreviewIsMadeASmallOneIsItsOwn() throws {
        let d = Daemon()
        try ThumbnailTests.sample(["marker", d.root() + "/large.jpg", "--width", "4000", "--height", "3000", "--orientation", "8"])
        try ThumbnailTests.sample(["marker", d.root() + "/small.jpg", "--width", "1600", "--height", "1200"])
        try d.start()
        let client = try d.client()
        try ThumbnailTests.waitForBacklog(client, ready: 2, failed: 0)
        let ids = try client.idsByPath()
        let large = try #require(ids["large.jpg"])
        let small = try #require(ids["small.jpg"])

        let first = try Web.open(["photo": large, "what": "screen"], socket: d.socket)
        #expect(Web.result(first)["state"] as? String == "pending", "made when first asked for: \(first)")
        let screen = try Self.readyPreview("large.jpg", d, client, what: "screen")
        #expect(Web.result(screen)["content_type"] as? String == "image/jpeg" && screen["fds"] as? Int == 1, "\(screen)")
        #expect(screen["jpeg_size"] as? [Int] == [2560, 1920], "upright, the screen's size: \(screen)")
        let original = try Web.open(["photo": large, "what": "original"], socket: d.socket)
        #expect(Web.result(screen)["version"] as? String == Web.result(original)["version"] as? String)
        #expect(screen["sha256"] as? String != original["sha256"] as? String)

        // No larger than a screen: the photo is its own, once the worker said so.
        let own = try Self.readyPreview("small.jpg", d, client, what: "screen")
        let file = try Web.open(["photo": small, "what": "original"], socket: d.socket)
        #expect(own["sha256"] as? String == file["sha256"] as? String, "\(own)")
        #expect(Web.result(own)["content_type"] as? String == "image/jpeg")
        let again = try Web.open(["photo": small, "what": "screen"], socket: d.socket)
        #expect(Web.result(again)["state"] as? String == "ready", "known now, not asked of the worker again: \(again)")

        // The gateway streams it as it is.
        let web = try WebGatewayProcess(d)
        let session = try web.signIn()
        let fetched = try web.request("GET", "/photo/\(large)/screen", headers: ["Cookie": "curator_session=" + session])
        #expect(fetched.status == 200 && fetched.header("Content-Type") == "image/jpeg", "\(fetched)")
        #expect(fetched.sha256 == screen["sha256"] as? String)

        // Deleted for good: the screen preview goes with the thumbnails.
        let name = try ThumbnailTests.standardName(d.root() + "/large.jpg")
        let made = ThumbnailTests.cache(d) + "/curatord-screen/" + name.dropLast(".png".count) + ".jpg"
        #expect(FileManager.default.fileExists(atPath: made), "\(made)")
        #expect(unlink(d.root() + "/large.jpg") == 0)
        try eventually(timeout: 30, "the deleted JPEG's screen preview to go") { !FileManager.default.fileExists(atPath: made) }
    }
}
