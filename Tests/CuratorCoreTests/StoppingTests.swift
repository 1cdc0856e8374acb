// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorStore
import CuratorSystem
import Foundation
import Synchronization
import Testing

/// Requests once the daemon is stopping (issue 11 point 20): a confirm is answered
/// `shutting_down` before anything is journaled; it used to journal a batch and
/// then park its thread forever, holding the batch lock, with no answer.
@Suite(.serialized)
struct StoppingTests {
    final class NoSink: EventSink {
        func deliver(_ line: Data) -> Bool { true }
    }

    static let me = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())

    /// A curator over `count` photos, indexed, its journal recovered.
    final class Fixture {
        let scratch: ScratchDirectory
        let curator: Curator
        let sink = NoSink()
        let root: ByteString

        init(photos count: Int) throws {
            scratch = try ScratchDirectory()
            root = scratch.child("root")
            var names: [ByteString] = []
            for i in 0..<count {
                let name = ByteString("IMG_\(i).jpg")
                try scratch.write(ByteString("root/").appending(name), Array("photo \(i)".utf8))
                names.append(name)
            }
            let config = Configuration(roots: [RootConfig(name: "pics", path: root)], socketPath: scratch.child("s"),
                                       stateDirectory: scratch.path, homeTrash: scratch.child("trash"))
            curator = try Curator(config: config)
            _ = try curator.recoverJournal()
            let files = try names.map { name in
                ScannedFile(name: name, status: try FileStatus.of(root.appending(name)), type: .jpeg)
            }
            try curator.withState { state in
                var seen = IDSet()
                let rootID = try #require(state.rootID(named: "pics"))
                _ = try state.reconcile(root: rootID, directory: ByteString(""), files: files, complete: true,
                                        deferRemovals: false, seen: &seen)
            }
        }

        /// The response line to `line`.
        func answer(_ line: String) throws -> [UInt8] { try Self.answer(line, curator, sink) }

        static func answer(_ line: String, _ curator: Curator, _ sink: NoSink) throws -> [UInt8] {
            let request = try Wire.decodeRequest(Data(line.utf8), known: CommandTable.known).get()
            return curator.handle(request, client: StoppingTests.me, sink: sink)
        }

        /// The response to `line`, as an object.
        func ask(_ line: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(try answer(line))) as? [String: Any])
        }

        /// The response to `line`, asked on a thread of its own; nil when it did not
        /// come within `seconds` (the thread is left behind, as a parked one would be).
        func askAside(_ line: String, seconds: Double = 10) throws -> [String: Any]? {
            let answered = DispatchSemaphore(value: 0)
            let box = Mutex<[UInt8]?>(nil)
            let (curator, sink) = (curator, sink)
            Thread.detachNewThread {
                let bytes = try? Self.answer(line, curator, sink)
                box.withLock { $0 = bytes }
                answered.signal()
            }
            guard answered.wait(timeout: .now() + seconds) == .success, let bytes = box.withLock({ $0 }) else { return nil }
            return try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        }

        /// Read on a connection of its own: a parked batch holds the runner's lock.
        var batchesInTheJournal: Int {
            let database = try? Database(path: scratch.child("journal.sqlite").lossyString)
            return (try? database?.prepare("SELECT count(*) FROM batches").firstRow { $0.int(0) }) ?? -1
        }
    }

    static func code(_ response: [String: Any]?) -> String? {
        (response?["error"] as? [String: Any])?["code"] as? String
    }

    @Test func aConfirmOnceStoppingIsAnsweredShuttingDownAndJournalsNothing() throws {
        let f = try Fixture(photos: 3)
        #expect(f.curator.photoCount == 3)
        _ = try f.ask(#"{"id":1,"cmd":"mode","mode":"select"}"#)
        _ = try f.ask(#"{"id":2,"cmd":"select","all":true}"#)
        let plan = try f.ask(#"{"id":3,"cmd":"delete.prepare"}"#)
        let token = try #require((plan["result"] as? [String: Any])?["token"] as? String)

        f.curator.beginStopping()
        let confirm = try f.askAside(#"{"id":4,"cmd":"delete.confirm","token":"\#(token)"}"#)
        #expect(confirm != nil, "the confirm never answered")
        #expect(Self.code(confirm) == "shutting_down", "\(String(describing: confirm))")
        #expect(confirm?["id"] as? Int == 4)
        #expect(f.batchesInTheJournal == 0, "a batch was journaled by a stopping daemon")
        for i in 0..<3 {
            #expect(FileManager.default.fileExists(atPath: f.root.appending(ByteString("IMG_\(i).jpg")).lossyString))
        }
        #expect(!f.curator.withState { $0.plans.batchRunning })
        // Every other request too: nothing new starts.
        for line in [#"{"id":5,"cmd":"undo"}"#, #"{"id":6,"cmd":"status"}"#, #"{"id":7,"cmd":"list"}"#] {
            #expect(Self.code(try f.askAside(line)) == "shutting_down", "\(line)")
        }
        #expect(f.curator.waitForBatchToStop(seconds: 1))
    }
}

