// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Synchronization
import Testing

/// `reload`'s rules, which the command keeps (the daemon only reads the file):
/// root and the daemon's own user only, nothing once stopping, and a daemon
/// that handed no reloader over says it cannot.
@Suite struct ReloadRuleTests {
    final class FakeReloader: ConfigurationReloading {
        let calls = Mutex<[(askedBy: String, waitForWatcher: Bool)]>([])
        let answer: Result<ReloadResult, ProtocolError>

        init(_ answer: Result<ReloadResult, ProtocolError>) { self.answer = answer }

        func reload(askedBy: String, waitForWatcher: Bool) -> Result<ReloadResult, ProtocolError> {
            calls.withLock { $0.append((askedBy, waitForWatcher)) }
            return answer
        }

        var count: Int { calls.withLock { $0.count } }
    }

    static let reloaded = ReloadResult(roots: ["pics"], added: [], removed: [], changed: [], restartNeeded: [], warnings: [])

    static func response(_ f: StoppingTests.Fixture, uid: UInt32 = getuid()) throws -> [String: Any] {
        let request = try Wire.decodeRequest(Data(#"{"id":1,"cmd":"reload"}"#.utf8), known: CommandTable.known).get()
        let bytes = f.curator.handle(request, client: PeerCredentials(pid: getpid(), uid: uid, gid: getgid()), sink: f.sink)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func code(_ response: [String: Any]) -> String? { (response["error"] as? [String: Any])?["code"] as? String }

    @Test func withoutAReloaderTheDaemonSaysItCannot() throws {
        let f = try StoppingTests.Fixture(photos: 0)
        let response = try Self.response(f)
        #expect(Self.code(response) == "internal_error")
        #expect(((response["error"] as? [String: Any])?["message"] as? String)?.contains("cannot reload") == true)
    }

    @Test func theDaemonsUserReloadsAndWaitsForTheWatcher() throws {
        let f = try StoppingTests.Fixture(photos: 0)
        let reloader = FakeReloader(.success(Self.reloaded))
        f.curator.handReloadsTo(reloader)
        let response = try Self.response(f)
        #expect(response["ok"] as? Bool == true)
        #expect((response["result"] as? [String: Any])?["roots"] as? [String] == ["pics"])
        let call = try #require(reloader.calls.withLock { $0.first })
        #expect(call.askedBy == "uid \(getuid())")
        #expect(call.waitForWatcher)
    }

    @Test func anotherUserIsRefusedAndNothingIsReloaded() throws {
        let f = try StoppingTests.Fixture(photos: 0)
        let reloader = FakeReloader(.success(Self.reloaded))
        f.curator.handReloadsTo(reloader)
        let other: UInt32 = geteuid() == 4242 ? 4243 : 4242
        #expect(Self.code(try Self.response(f, uid: other)) == "permission_denied")
        #expect(reloader.count == 0)
    }

    @Test func aRefusedConfigurationIsTheAnswer() throws {
        let f = try StoppingTests.Fixture(photos: 0)
        f.curator.handReloadsTo(FakeReloader(.failure(ProtocolError(.configInvalid, "bad"))))
        #expect(Self.code(try Self.response(f)) == "config_invalid")
    }

    @Test func nothingIsReloadedOnceStopping() throws {
        let f = try StoppingTests.Fixture(photos: 0)
        let reloader = FakeReloader(.success(Self.reloaded))
        f.curator.handReloadsTo(reloader)
        f.curator.beginStopping()
        #expect(Self.code(try Self.response(f)) == "shutting_down")
        #expect(throws: ProtocolError(.shuttingDown, "curatord is stopping.")) {
            try ReloadCommand.run(ReloadRequest(), curator: f.curator, caller: Caller(uid: 0))
        }
        #expect(reloader.count == 0)
    }
}
