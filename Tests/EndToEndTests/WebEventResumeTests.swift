// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A page's event stream across interruptions (issue 51): events carry SSE ids, a
/// stream opened again with `Last-Event-ID` begins by saying what was lost, and the
/// gateway serves on across a restart of the daemon.
@Suite(.serialized)
struct WebEventResumeTests {
    static func isEventID(_ id: Any?) -> Bool {
        guard let id = id as? String else { return false }
        let parts = id.split(separator: "-")
        return parts.count == 2 && parts.allSatisfy { Int($0) != nil }
    }

    @Test func aPageThatComesBackIsToldToListAgainAndTheGatewayOutlivesADaemonRestart() throws {
        let d = try WebGatewayTests.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        let before = try WebGatewayProcess.client("events", ["port": web.port, "cookie": cookie, "create": d.root() + "/NEW_0001.JPG",
                                                             "expect": "NEW_0001.JPG", "timeout": 20])
        #expect(before["event"] != nil && Self.isEventID(before["id"]), "events carry ids: \(before)")

        // The daemon restarts under the gateway: its connections are gone.
        #expect(d.stop() == 0)
        try d.start()
        let status = try web.api("status", cookie: cookie)
        #expect(status.status == 200, "the gateway connects again: \(status)")
        #expect(status.result["photos"] as? Int == 4)

        // The page's EventSource connects again, saying the last id it saw.
        let resumed = try WebGatewayProcess.client("first", ["port": web.port, "cookie": cookie, "last_event_id": before["id"] ?? "",
                                                             "timeout": 20])
        #expect(resumed["status"] as? Int == 200, "\(resumed)")
        let notice = resumed["event"] as? [String: Any]
        #expect(notice?["event"] as? String == "dropped", "\(resumed)")
        #expect((notice?["message"] as? String)?.contains("list again") == true)
        #expect(Self.isEventID(resumed["id"]))
        // And it is a live stream again.
        let after = try WebGatewayProcess.client("events", ["port": web.port, "cookie": cookie, "create": d.root() + "/NEW_0002.JPG",
                                                            "expect": "NEW_0002.JPG", "timeout": 20])
        #expect(after["event"] != nil, "\(after)")
    }
}
