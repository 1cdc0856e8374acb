// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A listing large enough to be written on a thread of its own, a piece at a time
/// while it is sent (`ListingPieces`), through the real socket.
@Suite(.serialized)
struct ListingStreamTests {
    /// Over ListingPieces.threadFrom (written on its own thread), and about 1.8 MB
    /// of listing: more than a socket's buffer and the pieces written ahead hold.
    static let photos = 12_000

    static func daemonWithManyPhotos() throws -> Daemon {
        let daemon = Daemon()
        for folder in 0..<40 {
            let path = daemon.root() + String(format: "/2024/%02d-trip", folder)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for i in 0..<(photos / 40) { Files.write(path + String(format: "/IMG_%04d.JPG", i)) }
        }
        try daemon.start()
        return daemon
    }

    /// The line is whole and in view order; what the client asked after it comes
    /// after it; events of changes made while it is sent come after it, never inside.
    @Test func aLargeListingArrivesWholeWithEventsAndAnswersAfterIt() throws {
        let daemon = try Self.daemonWithManyPhotos()
        let client = try daemon.client()
        try client.subscribe()
        try client.sendLine(#"{"id":"big","cmd":"list"}"#)
        try client.sendLine(#"{"id":"after","cmd":"hello"}"#)
        // Changes while the listing is (likely) still on its way; not read yet.
        for i in 0..<20 { Files.write(daemon.root() + "/new-\(i).jpg") }

        var lines: [[String: Any]] = []
        func count(_ event: String?) -> Int { lines.filter { $0["event"] as? String == event }.count }
        while count(nil) < 2 || count("added") < 20 {
            // Every line must be a JSON object: an event written into the listing breaks this.
            guard let object = try client.readObject(timeout: 20) else { break }
            lines.append(object)
        }
        let answers = lines.filter { $0["event"] == nil }
        try #require(answers.count == 2)
        #expect(answers[0]["id"] as? String == "big")
        #expect(answers[1]["id"] as? String == "after")
        let result = try #require(answers[0]["result"] as? [String: Any])
        let photos = try #require(result["photos"] as? [[String: Any]])
        #expect(result["total"] as? Int == photos.count)
        #expect(photos.count >= Self.photos)
        #expect(photos.compactMap { $0["position"] as? Int } == Array(1...photos.count))
        let paths = photos.compactMap { $0["path"] as? String }
        #expect(Set(paths).count == photos.count, "no photo twice")
        let sections = try #require(result["folders"] as? [[String: Any]])
        #expect(sections.compactMap { $0["count"] as? Int }.reduce(0, +) == photos.count)
        // The events of the new files all arrived, each a line of its own.
        #expect(count("added") == 20)
    }

    /// Clients that leave in the middle of large listings stop their writing
    /// threads; the daemon keeps serving and its thread count comes back down. A
    /// client that closes only its side for writing gets its whole answer first.
    @Test func clientsThatCloseTheirEndMidListing() throws {
        let daemon = try Self.daemonWithManyPhotos()
        let pid = try #require(daemon.process?.processIdentifier)
        func threads() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? -1 }
        _ = try daemon.client().result(["cmd": "hello"])
        let before = threads()
        for _ in 0..<8 {
            let c = try daemon.client()
            try c.sendLine(#"{"id":1,"cmd":"list"}"#)
            // Read nothing: the socket fills, the writer waits for its pieces to go; hang up.
            usleep(50_000)
        }
        let deadline = Date(timeIntervalSinceNow: 10)
        while threads() > before && deadline.timeIntervalSinceNow > 0 { usleep(20_000) }
        #expect(threads() <= before, "writing threads left behind: \(threads()) threads, \(before) before")
        let photos = try daemon.client().photos(["fields": ["id"]])
        #expect(photos.count == Self.photos)

        // A client that closes its side for writing once it has asked (as `socat`
        // does at the end of its input) still gets the whole answer, then the end.
        let halfClosed = try daemon.client()
        try halfClosed.sendLine(#"{"id":"all","cmd":"list"}"#)
        #expect(Glibc.shutdown(halfClosed.fd.rawValue, Int32(SHUT_WR)) == 0)
        let line = try #require(try halfClosed.readLine(timeout: 30))
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect(((answer["result"] as? [String: Any])?["photos"] as? [Any])?.count == Self.photos)
        #expect(throws: (any Error).self, "the connection ends once the answer is out") { try halfClosed.readLine(timeout: 5) }
    }
}
