// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorStore
import CuratorSystem
import Glibc
import Testing

/// Files written one after the other into one folder (a copy of a library into a
/// root) are indexed in one transaction, not one each (issue 14's flood: a commit
/// per file was a third of the watcher's time).
@Suite struct ArrivalsTests {
    /// The frames in the index's WAL: each commit adds its pages, so a commit per
    /// file makes at least one frame a file.
    private static func walFrames(_ f: CrawlerFixture) throws -> Int {
        let database = try Database(path: f.scratch.child("index.sqlite").lossyString)
        return try database.prepare("PRAGMA wal_checkpoint(PASSIVE)").firstRow { $0.int(1) } ?? -1
    }

    private static func truncateWAL(_ f: CrawlerFixture) throws {
        let database = try Database(path: f.scratch.child("index.sqlite").lossyString)
        _ = try database.prepare("PRAGMA wal_checkpoint(TRUNCATE)").firstRow { $0.int(0) }
    }

    @Test func filesWrittenIntoOneFolderAreOneTransaction() throws {
        let f = try CrawlerFixture()
        try f.write("album/first.jpg")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        try Self.truncateWAL(f)
        let names = (0..<120).map { String(format: "album/IMG_%04d.JPG", $0) }
        for name in names { try f.write(name) }
        f.crawler.apply(names.map { f.path($0, .written) })
        #expect(Set(f.ids.keys) == Set(names + ["album/first.jpg"]))
        let frames = try Self.walFrames(f)
        #expect(frames >= 0 && frames < 40, "\(frames) WAL frames for 120 files: a transaction each makes one or more a file")
    }

    /// A run of arrivals is only `appear` steps of one folder; whatever else comes
    /// (another folder, a removal) ends it and keeps its place in the order.
    @Test func aRunOfArrivalsIsOneFoldersAppearsInARow() throws {
        let status = try #require(try FileStatus.ifExists("/"))
        func appear(_ path: String) -> Crawler.IndexStep {
            .appear(ByteString(path), ScannedFile(name: ByteString(path).lastComponent, status: status, type: .jpeg))
        }
        let steps: [Crawler.IndexStep] = [appear("a/1.jpg"), appear("a/2.jpg"), appear("b/3.jpg"), .vanish(ByteString("b/3.jpg")),
                                          appear("b/4.jpg")]
        #expect(Crawler.arrivals(in: steps[...]).map(\.path) == [ByteString("a/1.jpg"), ByteString("a/2.jpg")])
        #expect(Crawler.arrivals(in: steps[2...]).map(\.path) == [ByteString("b/3.jpg")])
        #expect(Crawler.arrivals(in: steps[3...]).isEmpty)
        #expect(Crawler.arrivals(in: steps[4...]).map(\.path) == [ByteString("b/4.jpg")])
    }

    /// The same file twice in a run (written, then written again before the watcher
    /// looked) is indexed once, as the last look found it.
    @Test func aFileSeenTwiceInARunIsIndexedAsItsLastLookFoundIt() throws {
        let f = try CrawlerFixture()
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        try f.write("a.jpg", "first")
        try f.write("b.jpg")
        let early = try #require(try FileStatus.ifExists(f.root.appending(ByteString("a.jpg"))))
        try f.write("a.jpg", "written again, longer")
        let late = try #require(try FileStatus.ifExists(f.root.appending(ByteString("a.jpg"))))
        let b = try #require(try FileStatus.ifExists(f.root.appending(ByteString("b.jpg"))))
        f.crawler.applySteps([.appear(ByteString("a.jpg"), ScannedFile(name: ByteString("a.jpg"), status: early, type: .jpeg)),
                              .appear(ByteString("b.jpg"), ScannedFile(name: ByteString("b.jpg"), status: b, type: .jpeg)),
                              .appear(ByteString("a.jpg"), ScannedFile(name: ByteString("a.jpg"), status: late, type: .jpeg))])
        #expect(f.ids.keys.sorted() == ["a.jpg", "b.jpg"])
        let a = try #require(f.ids["a.jpg"])
        #expect(f.state.library.photos[a]?.size == Int64("written again, longer".utf8.count))
    }
}
