// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Testing

/// Each command's handler, asked directly over a real index and journal (three
/// photos in root `pics`): what it answers, and what it refuses. The commands that
/// other suites already drive by name (view, mode, clear, selection, delete.*,
/// status, list, reload, trash.empty) are not repeated here.
@Suite(.serialized)
struct CommandHandlerTests {
    typealias Fixture = StoppingTests.Fixture

    static let me = Caller(uid: getuid(), gid: getgid())

    /// Records the event lines a subscriber is sent.
    final class Recorder: EventSink {
        let lines = LockedLines()
        func deliver(_ line: Data) -> Bool {
            lines.append(String(decoding: line, as: UTF8.self))
            return true
        }
    }

    final class LockedLines: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [String] = []
        func append(_ line: String) { lock.withLock { all.append(line) } }
        var value: [String] { lock.withLock { all } }
    }

    /// The ids of `IMG_0.jpg`, `IMG_1.jpg`, ... as the index holds them.
    static func ids(_ f: Fixture, _ count: Int = 3) throws -> [Int64] {
        try f.curator.withState { state in
            let root = try #require(state.rootID(named: "pics"))
            return try (0..<count).map { i in
                try #require(state.library.photoID(root: root, relativePath: ByteString("IMG_\(i).jpg")))
            }
        }
    }

    static func inSelectMode(_ f: Fixture, session: String? = nil) throws {
        _ = try f.curator.withState { (state) throws(ProtocolError) in
            try ModeCommand.run(in: state, ModeRequest(session: session, mode: .select), caller: me)
        }
    }

    static func code(of body: () throws -> Void) -> ErrorCode? {
        do {
            try body()
            return nil
        } catch let error as ProtocolError {
            return error.code
        } catch let error as BatchError {
            return error.protocolError.code
        } catch {
            return .internalError
        }
    }

    /// One photo to the trash by `delete.prepare` and `delete.confirm`: its batch.
    static func trash(_ f: Fixture, _ id: Int64) throws -> BatchResult {
        let plan = try f.curator.withState { (state) throws(ProtocolError) in
            try DeletePrepareCommand.run(in: state, DeletePrepareRequest(ids: [id]), caller: me)
        }
        return try DeleteConfirmCommand.run(DeleteConfirmRequest(token: plan.token), curator: f.curator, caller: me)
    }

    // MARK: -

    @Test func helloNamesTheServerItsProtocolAndTheCaller() throws {
        let f = try Fixture(photos: 0)
        let hello = HelloCommand.run(HelloRequest(), curator: f.curator, caller: Caller(uid: 4321))
        #expect(hello.server == ProtocolInfo.serverName)
        #expect(hello.protocolVersion == ProtocolInfo.version)
        #expect(hello.uid == 4321)
    }

    @Test func subscribeNeedsAConnectionKnownRootsAndValidSessionNames() throws {
        let f = try Fixture(photos: 3)
        let recorder = Recorder()
        let connected = Caller(Self.me.credentials, connection: recorder)
        #expect(Self.code {
            _ = try f.curator.withState { (state) throws(ProtocolError) in
                try SubscribeCommand.run(in: state, SubscribeRequest(roots: ["elsewhere"]), caller: connected)
            }
        } == .noSuchRoot)
        #expect(Self.code {
            _ = try f.curator.withState { (state) throws(ProtocolError) in
                try SubscribeCommand.run(in: state, SubscribeRequest(sessions: ["no/slash"]), caller: connected)
            }
        } == .invalidArgument)
        #expect(Self.code {
            _ = try f.curator.withState { (state) throws(ProtocolError) in try SubscribeCommand.run(in: state, SubscribeRequest(), caller: Self.me) }
        } == .internalError, "no connection to send events to")
        // Subscribed to its session "s": a change made there by another asker is told.
        _ = try f.curator.withState { (state) throws(ProtocolError) in
            try SubscribeCommand.run(in: state, SubscribeRequest(roots: ["pics"], sessions: ["s"]), caller: connected)
        }
        try Self.inSelectMode(f, session: "s")
        #expect(recorder.lines.value.contains { $0.contains(#""event":"selection""#) }, "\(recorder.lines.value)")
    }

    @Test func rescanRefusesAnUnknownRootAndNamesTheRootsItQueued() throws {
        let f = try Fixture(photos: 1)
        #expect(Self.code { _ = try RescanCommand.run(RescanRequest(root: "elsewhere"), curator: f.curator, caller: Self.me) } == .noSuchRoot)
        // No watcher runs here: the rescan is queued and answered within its bound.
        let started = MonotonicClock.nanoseconds()
        let result = try RescanCommand.run(RescanRequest(root: "pics"), curator: f.curator, caller: Self.me)
        #expect(result.roots == ["pics"])
        #expect(MonotonicClock.nanoseconds() - started < 30_000_000_000)
    }

    @Test func syncRefusesAnUnknownRootAndIsBoundedByItsTimeout() throws {
        let f = try Fixture(photos: 1)
        #expect(Self.code { _ = try SyncCommand.run(SyncRequest(root: "elsewhere"), curator: f.curator, caller: Self.me) } == .noSuchRoot)
        let result = try SyncCommand.run(SyncRequest(root: "pics", timeoutMs: 200), curator: f.curator, caller: Self.me)
        #expect(result.elapsedMs < 10_000, "\(result)")
    }

    @Test func selectDeselectAndToggleChangeTheSelectionInSelectModeOnly() throws {
        let f = try Fixture(photos: 3)
        let ids = try Self.ids(f)
        #expect(Self.code {
            _ = try f.curator.withState { (state) throws(ProtocolError) in
                try SelectCommand.run(in: state, SelectRequest(selector: PhotoSelector(ids: [ids[0]])), caller: Self.me)
            }
        } == .notInSelectMode)
        try Self.inSelectMode(f)
        let selected = try f.curator.withState { (state) throws(ProtocolError) in
            try SelectCommand.run(in: state, SelectRequest(selector: PhotoSelector(ids: [ids[0], ids[1]])), caller: Self.me)
        }
        #expect(selected.added == 2 && selected.count == 2)
        let toggled = try f.curator.withState { (state) throws(ProtocolError) in
            try ToggleCommand.run(in: state, ToggleRequest(selector: PhotoSelector(ids: [ids[1], ids[2]])), caller: Self.me)
        }
        #expect(toggled.added == 1 && toggled.removed == 1 && toggled.count == 2)
        let deselected = try f.curator.withState { (state) throws(ProtocolError) in
            try DeselectCommand.run(in: state, DeselectRequest(selector: PhotoSelector(ids: [ids[0]])), caller: Self.me)
        }
        #expect(deselected.removed == 1 && deselected.count == 1)
        let left = try f.curator.withState { (state) throws(ProtocolError) in
            try SelectionCommand.run(in: state, SelectionRequest(), caller: Self.me)
        }
        #expect(left.items.map(\.id) == [ids[2]])
        // Only `select` takes the duplicates' rest.
        var rest = PhotoSelector()
        rest.duplicates = .rest
        #expect(Self.code {
            _ = try f.curator.withState { (state) throws(ProtocolError) in
                try DeselectCommand.run(in: state, DeselectRequest(selector: rest), caller: Self.me)
            }
        } == .invalidArgument)
    }

    @Test func reorderMovesAPhotoInTheCustomOrderOnly() throws {
        let f = try Fixture(photos: 3)
        let ids = try Self.ids(f)
        #expect(Self.code {
            _ = try f.curator.withState { (state) throws(ProtocolError) in
                try ReorderCommand.run(in: state, ReorderRequest(position: 1, to: 3), caller: Self.me)
            }
        } == .invalidArgument, "the view is not in the custom order")
        _ = try f.curator.withState { (state) throws(ProtocolError) in
            try ViewCommand.run(in: state, ViewRequest(view: ViewSpec(sort: .custom)), caller: Self.me)
        }
        let before = try f.curator.withState { (state) throws(ProtocolError) in
            try state.resolve(state.session(SessionKey.named(nil, uid: Self.me.uid)).view, uid: Self.me.uid)
        }
        #expect(Set(before) == Set(ids))
        let moved = try f.curator.withState { (state) throws(ProtocolError) in
            try ReorderCommand.run(in: state, ReorderRequest(position: 1, to: 3), caller: Self.me)
        }
        #expect(moved.id == before[0] && moved.from == 1 && moved.to == 3)
        let after = try f.curator.withState { (state) throws(ProtocolError) in
            try state.resolve(state.session(SessionKey.named(nil, uid: Self.me.uid)).view, uid: Self.me.uid)
        }
        #expect(Array(after) == [before[1], before[2], before[0]])
        #expect(Self.code {
            _ = try f.curator.withState { (state) throws(ProtocolError) in
                try ReorderCommand.run(in: state, ReorderRequest(position: 1, to: 9), caller: Self.me)
            }
        } == .noSuchPosition)
    }

    @Test func historyAndTrashListShowABatchAndUndoPutsItBack() throws {
        let f = try Fixture(photos: 2)
        let ids = try Self.ids(f, 2)
        #expect(Self.code { _ = try UndoCommand.run(UndoRequest(), curator: f.curator, caller: Self.me) } == .noSuchBatch)
        #expect(try HistoryCommand.run(HistoryRequest(), curator: f.curator, caller: Self.me).batches.isEmpty)
        let batch = try Self.trash(f, ids[0])
        #expect(batch.trashed == 1)
        let file = f.root.appending("IMG_0.jpg").lossyString
        #expect(!FileManager.default.fileExists(atPath: file))

        let history = try HistoryCommand.run(HistoryRequest(), curator: f.curator, caller: Self.me)
        #expect(history.batches.map(\.batch) == [batch.batch])
        #expect(try HistoryCommand.run(HistoryRequest(), curator: f.curator, caller: Caller(uid: 4321)).batches.isEmpty,
                "another user's history is their own")
        let listed = try TrashListCommand.run(TrashListRequest(), curator: f.curator, caller: Self.me)
        #expect(listed.photos.map(\.path) == ["IMG_0.jpg"] && listed.photos.map(\.batch) == [batch.batch])
        #expect(!listed.token.isEmpty)
        #expect(Self.code { _ = try TrashListCommand.run(TrashListRequest(root: "elsewhere"), curator: f.curator, caller: Self.me) }
                == .noSuchRoot)
        #expect(try TrashListCommand.run(TrashListRequest(olderThanDays: 1), curator: f.curator, caller: Self.me).photos.isEmpty)

        let undone = try UndoCommand.run(UndoRequest(), curator: f.curator, caller: Self.me)
        #expect(undone.batch == batch.batch && undone.restored == 1)
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(try TrashListCommand.run(TrashListRequest(), curator: f.curator, caller: Self.me).photos.isEmpty)
        #expect(f.curator.withState { state in state.library.listed(ids[0]) != nil }, "indexed again under its id")
    }

    @Test func thumbnailNeedsPhotosItKnowsAndThumbnailsOn() throws {
        let f = try Fixture(photos: 1)
        let id = try Self.ids(f, 1)[0]
        #expect(Self.code { _ = try ThumbnailCommand.run(ThumbnailRequest(), curator: f.curator, caller: Self.me) } == .invalidArgument)
        let tooMany = ThumbnailRequest(ids: Array(repeating: id, count: ThumbnailRequest.maxPhotos + 1))
        #expect(Self.code { _ = try ThumbnailCommand.run(tooMany, curator: f.curator, caller: Self.me) } == .invalidArgument)
        #expect(Self.code { _ = try ThumbnailCommand.run(ThumbnailRequest(photo: 987_654), curator: f.curator, caller: Self.me) }
                == .noSuchPhoto)
        // This curator's configuration names no thumbnail cache.
        #expect(Self.code { _ = try ThumbnailCommand.run(ThumbnailRequest(photo: id), curator: f.curator, caller: Self.me) }
                == .thumbnailsOff)
    }

    @Test func photoInfoAnswersForAPhotoItKnows() throws {
        let f = try Fixture(photos: 1)
        let id = try Self.ids(f, 1)[0]
        let info = try PhotoInfoCommand.run(PhotoInfoRequest(photo: id), curator: f.curator, caller: Self.me)
        #expect(info.photo.id == id)
        #expect(info.photo.path == "IMG_0.jpg")
        #expect(Self.code { _ = try PhotoInfoCommand.run(PhotoInfoRequest(photo: 987_654), curator: f.curator, caller: Self.me) }
                == .noSuchPhoto)
    }

    @Test func rateWritesTheMarksIntoASidecarAndSaysWhatWasThere() throws {
        let f = try Fixture(photos: 1)
        let id = try Self.ids(f, 1)[0]
        let rated = try RateCommand.run(RateRequest(ids: [id], rating: .value(4), label: .value("red")), curator: f.curator,
                                        caller: Self.me)
        let photo = try #require(rated.photos.first)
        #expect(rated.photos.count == 1 && photo.id == id)
        #expect(photo.previous.rating == nil && photo.marks.rating == 4 && photo.marks.label == "red")
        #expect(!photo.sidecars.isEmpty)
        for sidecar in photo.sidecars {
            #expect(FileManager.default.fileExists(atPath: f.root.appending(ByteString(sidecar)).lossyString))
        }
        #expect(Self.code {
            _ = try RateCommand.run(RateRequest(ids: [id], rating: .value(9)), curator: f.curator, caller: Self.me)
        } == .invalidArgument)
    }
}
