// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import Foundation
import Glibc
import Testing
import CuratorTestSupport

struct ThumbnailDirectoryTests {
    private func subject(_ scratch: ScratchDirectory) throws -> ThumbnailSubject {
        ThumbnailSubject(uri: try FileURI(path: scratch.child("photo.jpg")), mtime: 1_700_000_000, size: 1234)
    }

    private func mode(_ path: ByteString) throws -> UInt32 { try FileStatus.of(path).mode & 0o7777 }

    @Test func writesWhereTheStandardSaysWithItsModes() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let cache = ThumbnailCache(root: scratch.child("cache/thumbnails"))
        let directory = try ThumbnailDirectory.open(cache, create: true)
        let subject = try subject(scratch)
        let png = try PNGChunks.insertingText(subject.textEntries, into: PNGChunks.emptyImage(text: []))
        try directory.write(png, for: subject.uri, size: .large)

        let path = cache.path(for: subject.uri, size: .large)
        #expect(try scratch.read(path) == png)
        #expect(try mode(path) == 0o600)
        #expect(try mode(cache.root) == 0o700)
        #expect(try mode(cache.root.appending("large")) == 0o700)
        #expect(try directory.lookup(subject, size: .large) == .valid(width: 1, height: 1))
        #expect(try directory.lookup(subject, size: .normal) == .missing)
        // Nothing but the thumbnail: the temporary name is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.root.appending("large").lossyString).count == 1)
    }

    #if CURATOR_FAULT_INJECTION
    /// close(2) is where NFS reports a failed write-back: a thumbnail whose close
    /// failed is a failed write, and nothing is renamed into place.
    @Test func aFailedCloseOfAWrittenThumbnailIsAFailedWrite() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let cache = ThumbnailCache(root: scratch.child("cache/thumbnails"))
        let directory = try ThumbnailDirectory.open(cache, create: true)
        let subject = try subject(scratch)
        let png = try PNGChunks.insertingText(subject.textEntries, into: PNGChunks.emptyImage(text: []))
        // The first close is the thumbnail's (under its temporary name, which is random).
        let plan = FaultPlan(Fault(.close, .fail(Errno(EIO))))
        #expect(throws: SystemError.self) {
            try plan.run { () throws(SystemError) in try directory.write(png, for: subject.uri, size: .large) }
        }
        #expect(plan.missed.isEmpty)
        #expect(try directory.lookup(subject, size: .large) == .missing)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.root.appending("large").lossyString).isEmpty)
    }
    #endif

    @Test func aChangedFileMakesItsThumbnailStale() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let directory = try ThumbnailDirectory.open(ThumbnailCache(root: scratch.child("thumbnails")), create: true)
        let subject = try subject(scratch)
        try directory.write(
            try PNGChunks.insertingText(subject.textEntries, into: PNGChunks.emptyImage(text: [])), for: subject.uri, size: .normal)
        let touched = ThumbnailSubject(uri: subject.uri, mtime: subject.mtime + 1, size: subject.size)
        let grown = ThumbnailSubject(uri: subject.uri, mtime: subject.mtime, size: subject.size + 1)
        #expect(try directory.lookup(touched, size: .normal) == .stale)
        #expect(try directory.lookup(grown, size: .normal) == .stale)
        // Another program's thumbnail without Thumb::Size is valid on URI and MTime alone.
        let theirs = PNGChunks.emptyImage(text: [("Thumb::URI", subject.uri.text), ("Thumb::MTime", String(subject.mtime))])
        try directory.write(theirs, for: subject.uri, size: .normal)
        #expect(try directory.lookup(grown, size: .normal) == .valid(width: 1, height: 1))
    }

    @Test func failRecordsAreOursAndExpireWithTheFile() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let cache = ThumbnailCache(root: scratch.child("thumbnails"))
        let directory = try ThumbnailDirectory.open(cache, create: true)
        let subject = try subject(scratch)
        #expect(try directory.failRecord(for: subject) == nil)
        try directory.writeFailRecord(for: subject, reason: "too_large: 60000x60000 pixels\nsecond line ü")
        #expect(try directory.failRecord(for: subject) == "too_large: 60000x60000 pixels?second line ?")
        #expect(try mode(cache.failPath(for: subject.uri)) == 0o600)
        #expect(cache.failPath(for: subject.uri).lossyString.contains("/fail/curatord-"))
        let changed = ThumbnailSubject(uri: subject.uri, mtime: subject.mtime + 60, size: subject.size)
        #expect(try directory.failRecord(for: changed) == nil)
        #expect(try directory.removeAll(for: subject.uri) == 1)
        #expect(try directory.failRecord(for: subject) == nil)
    }

    /// A user who makes `large` a symlink to somewhere else must not get the daemon to
    /// write there.
    @Test func neverWritesThroughASymlinkedSizeDirectory() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let cache = ThumbnailCache(root: try scratch.mkdir("thumbnails", mode: 0o700))
        let elsewhere = try scratch.mkdir("elsewhere")
        _ = try syscall("symlink") { elsewhere.withCString { target in cache.root.appending("large").withCString { symlink(target, $0) } } }
        let directory = try ThumbnailDirectory.open(cache, create: false)
        let subject = try subject(scratch)
        #expect(throws: SystemError.self) {
            try directory.write(PNGChunks.emptyImage(text: subject.textEntries), for: subject.uri, size: .large)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.lossyString).isEmpty)
    }

    @Test func oddThingsUnderAThumbnailsNameAreUnreadableNotFatal() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let cache = ThumbnailCache(root: scratch.child("thumbnails"))
        let directory = try ThumbnailDirectory.open(cache, create: true)
        let subject = try subject(scratch)
        try directory.write([1, 2, 3], for: subject.uri, size: .normal)
        guard case .unreadable = try directory.lookup(subject, size: .normal) else {
            Issue.record("garbage is not a thumbnail")
            return
        }
        // A FIFO: opening it must not hang.
        _ = try scratch.mkdir("thumbnails/large", mode: 0o700)
        let fifo = cache.path(for: subject.uri, size: .large)
        _ = try syscall("mkfifo") { fifo.withCString { mkfifo($0, 0o600) } }
        guard case .unreadable = try directory.lookup(subject, size: .large) else {
            Issue.record("a FIFO is not a thumbnail")
            return
        }
    }

    @Test func userCacheFollowsTheBaseDirectorySpecification() {
        #expect(ThumbnailCache.user(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])?.root == "/c/thumbnails")
        #expect(ThumbnailCache.user(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"])?.root == "/h/.cache/thumbnails")
        #expect(ThumbnailCache.user(environment: ["XDG_CACHE_HOME": "", "HOME": "/h"])?.root == "/h/.cache/thumbnails")
        #expect(ThumbnailCache.user(environment: [:]) == nil)
    }

    @Test func sizes() {
        #expect(ThumbnailSize.allCases.map(\.pixels) == [128, 256, 512, 1024])
        #expect(ThumbnailSize.allCases.map(\.directoryName) == ["normal", "large", "x-large", "xx-large"])
        #expect(ThumbnailSize.fitting(200) == .large)
        #expect(ThumbnailSize.fitting(5000) == .xxLarge)
    }
}
