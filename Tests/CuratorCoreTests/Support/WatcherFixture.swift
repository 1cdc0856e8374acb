// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// The state behind a lock as the watcher takes it, for tests that drive the
/// watcher's rooms on their own thread.
final class TestStateLock: WatcherStateLock, @unchecked Sendable {
    // @unchecked: a test drives the rooms from its one thread; the state is touched there only.
    let state: CuratorState
    /// The photos in the index before and after each hold of the lock.
    private(set) var holds: [(before: Int, after: Int)] = []
    init(_ state: CuratorState) { self.state = state }
    func withUpdates<R>(_ body: (any WatcherUpdates) -> R) -> R {
        let before = state.library.photos.count
        defer { holds.append((before, state.library.photos.count)) }
        return body(state)
    }
    func forgetHolds() { holds.removeAll() }
}

/// Stands in for the inotify source: records what it is asked and runs `duringWatch`
/// while a watch is being set (to change the folder at that very moment).
final class RecordingWatcher: DirectoryWatcher, @unchecked Sendable {
    // @unchecked: one test thread, and the crawler's walker thread while a scan step
    // runs (a step ends after its walks); the test thread and the walker may both
    // be in `watch` at once (a step walks on both), which takes `watching` for that.
    var watched: [ByteString] = []
    private let watching = Mutex(())
    var forgotten: [(path: ByteString, unwatch: Bool)] = []
    var unwatchedRoots: [Int32] = []
    var outcome: WatchOutcome = .watched
    var duringWatch: (DirectoryToWatch) -> Void = { _ in }

    func watch(_ directories: [DirectoryToWatch]) -> [WatchOutcome] {
        directories.map { directory in
            duringWatch(directory)
            return watching.withLock { _ in
                if outcome == .watched { watched.append(directory.path) }
                return outcome
            }
        }
    }

    func forget(root: Int32, below path: ByteString, unwatch: Bool) { forgotten.append((path, unwatch)) }
    func unwatch(root: Int32) { unwatchedRoots.append(root) }
    func watchCount(root: Int32) -> Int { watched.count }
}

/// A root on disk, a real index and state, and a crawler over them.
final class CrawlerFixture {
    let scratch: ScratchDirectory
    let root: ByteString
    let state: CuratorState
    let rootID: Int32
    let watcher = RecordingWatcher()
    let moves = OwnMoves()
    let lock: TestStateLock
    let crawler: Crawler

    init() throws {
        scratch = try ScratchDirectory()
        root = scratch.child("root")
        #expect(Glibc.mkdir(root.lossyString, 0o755) == 0)
        let config = Configuration(roots: [RootConfig(name: "pics", path: root)], socketPath: scratch.child("s"),
                                   stateDirectory: scratch.path, homeTrash: scratch.child("trash"))
        state = try CuratorState(config: config, library: PhotoLibrary(store: IndexStore(path: scratch.child("index.sqlite").lossyString)))
        rootID = try #require(state.rootID(named: "pics"))
        lock = TestStateLock(state)
        crawler = Crawler(root: rootID, config: config.roots[0], watching: true, state: lock, watcher: watcher,
                          moves: moves, sequence: WorkSequence())
    }

    @discardableResult
    func write(_ relative: String, _ text: String = "photo") throws -> ByteString {
        try scratch.write(ByteString("root/" + relative), Array(text.utf8))
    }

    func mkdir(_ relative: String) {
        #expect(Glibc.mkdir(root.appending(ByteString(relative)).lossyString, 0o755) == 0)
    }

    func rename(_ from: String, _ to: String) {
        #expect(Glibc.rename(root.appending(ByteString(from)).lossyString, root.appending(ByteString(to)).lossyString) == 0)
    }

    func remove(_ relative: String) {
        #expect(unlink(root.appending(ByteString(relative)).lossyString) == 0)
    }

    /// Runs the queued scans to their end, as the watcher thread does.
    func scanAll() {
        while true {
            switch crawler.runScanStep() {
            case .idle: return
            case .working, .outOfWatches: continue
            case .readyToFinish: _ = crawler.finishFullScan()
            }
        }
    }

    func hint(_ kind: Hint.Kind) -> Hint { Hint(root: rootID, kind: kind) }

    func path(_ p: String, _ flags: HintFlags) -> Hint { hint(.path(ByteString(p), flags)) }

    /// Photo ids by relative path.
    var ids: [String: Int64] {
        var result: [String: Int64] = [:]
        for photo in state.library.photos.values { result[state.library.relativePath(of: photo).lossyString] = photo.id }
        return result
    }
}
