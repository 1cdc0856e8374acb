// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Synchronization
import Testing

/// `status` during a scan (issue 14): root's is read from the snapshot the state
/// publishes at the end of every hold of its lock, so it never waits behind one;
/// it says exactly what the state held when the last hold ended. Another user's
/// counts follow their permissions, also for folders a scan adds after they asked.
@Suite(.serialized)
struct StatusSnapshotTests {
    static let bob: UInt32 = 3_999_012

    /// A curator over a root of folders, each with `count` photos, written and indexed one by one.
    final class Library {
        let scratch: ScratchDirectory
        let curator: Curator
        let root: ByteString
        let rootID: Int32

        init() throws {
            scratch = try ScratchDirectory()
            root = scratch.child("root")
            _ = try scratch.write(ByteString("root/.keep"), [])
            chmod(root.lossyString, 0o755)
            let config = Configuration(roots: [RootConfig(name: "pics", path: root)], socketPath: scratch.child("s"),
                                       stateDirectory: scratch.path, homeTrash: scratch.child("trash"))
            curator = try Curator(config: config)
            _ = try curator.recoverJournal()
            rootID = try #require(curator.withState { $0.rootID(named: "pics") })
        }

        /// Writes `count` photos in `folder` (made with `mode`) and reconciles it, in one hold.
        func add(folder: String, count: Int, mode: mode_t = 0o755) throws {
            var files: [ScannedFile] = []
            for i in 0..<count {
                let name = ByteString("IMG_\(i).jpg")
                let path = try scratch.write(ByteString("root/\(folder)/").appending(name), Array("photo \(i)".utf8))
                files.append(ScannedFile(name: name, status: try FileStatus.of(path), type: .jpeg))
            }
            chmod(root.appending(ByteString(folder)).lossyString, mode)
            try curator.withState { state in
                var seen = IDSet()
                _ = try state.reconcile(root: rootID, directory: ByteString(folder), files: files, complete: true,
                                        deferRemovals: false, seen: &seen)
            }
        }

        func status(uid: UInt32) -> StatusResult {
            StatusCommand.run(StatusRequest(), curator: curator, caller: Caller(uid: uid, gid: uid))
        }
    }

    @Test func rootIsAnsweredWhileTheLockIsHeldWithWhatTheLastHoldLeft() throws {
        let library = try Library()
        try library.add(folder: "a", count: 30)
        #expect(library.status(uid: 0).photos == 30, "published by the hold that added them")

        // A hold that does not end (a long scan step): status still answers.
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let curator = library.curator
        Thread.detachNewThread {
            curator.withState { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let answered = DispatchSemaphore(value: 0)
        let box = Mutex<StatusResult?>(nil)
        Thread.detachNewThread {
            let result = StatusCommand.run(StatusRequest(), curator: curator, caller: Caller(uid: 0))
            box.withLock { $0 = result }
            answered.signal()
        }
        let inTime = answered.wait(timeout: .now() + 5) == .success
        release.signal()
        #expect(inTime, "status waited for the state lock")
        if !inTime { _ = answered.wait(timeout: .now() + 30) }
        let result = try #require(box.withLock { $0 })
        #expect(result.photos == 30)
        #expect(result.roots.first?.photos == 30)
        #expect(result.roots.first?.scanning == true, "the first scan has not been said to end")

        // The next hold's changes are in the next answer.
        try library.add(folder: "b", count: 12)
        let after = library.status(uid: 0)
        #expect(after.photos == 42)
        #expect(after.roots.first?.bytes == (0..<30).reduce(Int64(0)) { $0 + Int64("photo \($1)".utf8.count) }
                + (0..<12).reduce(Int64(0)) { $0 + Int64("photo \($1)".utf8.count) })
        curator.withState { $0.scanFinished(root: library.rootID, elapsedMs: 5, watches: 3, stillScanning: false) }
        #expect(library.status(uid: 0).scanning == false)
        #expect(library.status(uid: 0).roots.first?.lastScanMs == 5)
    }

    /// A user who could list every folder when they last asked is not told of the
    /// photos of a folder the scan adds later that they may not list; and one they
    /// may list counts.
    @Test func anotherUserCountsOnlyTheFoldersTheyMayListAsTheScanAddsThem() throws {
        let library = try Library()
        try library.add(folder: "open", count: 10)
        #expect(library.status(uid: Self.bob).photos == 10)
        #expect(library.status(uid: Self.bob).roots.first?.photos == 10)
        try library.add(folder: "closed", count: 7, mode: 0o700)
        #expect(library.status(uid: Self.bob).photos == 10, "a folder bob may not list is not counted")
        #expect(library.status(uid: 0).photos == 17)
        try library.add(folder: "open2", count: 4)
        #expect(library.status(uid: Self.bob).photos == 14)
        // And the other way: every folder listable again once the closed one opens.
        chmod(library.root.appending(ByteString("closed")).lossyString, 0o755)
        library.curator.withState { $0.directoryAttributesChanged(root: library.rootID, path: ByteString("closed")) }
        #expect(library.status(uid: Self.bob).photos == 21)
    }

    /// Within a folder epoch, only the folders added since the last answer are
    /// looked at again: a verdict for every folder is not asked per request.
    @Test func listsEverythingChecksOnlyTheFoldersAddedSince() throws {
        let library = try Library()
        for i in 0..<20 { try library.add(folder: "f\(i)", count: 1) }
        let (reads, asked) = library.curator.withState { state -> (Int, Int) in
            #expect(state.listsEverything(uid: Self.bob, root: library.rootID))
            return (state.access.reads, state.access.asked)
        }
        // Photos added to folders known already ask nothing.
        try library.add(folder: "f3", count: 2)
        library.curator.withState { state in
            #expect(state.listsEverything(uid: Self.bob, root: library.rootID))
            #expect(state.access.asked == asked)
        }
        try library.add(folder: "late", count: 1, mode: 0o700)
        library.curator.withState { state in
            #expect(!state.listsEverything(uid: Self.bob, root: library.rootID))
            #expect(state.access.reads == reads + 1, "one new directory read")
            #expect(state.access.asked == asked + 1, "one verdict asked, not the 20 folders' before it again")
        }
    }
}
