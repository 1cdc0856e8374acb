// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc
import Testing

/// A client that pipelines requests and never reads (issue 11 point 10): the
/// daemon stops reading it while the answers it is owed pass a bound, so its
/// memory stays flat; every request is still answered, in order, once it reads.
@Suite(.serialized)
struct PipeliningTests {
    /// The daemon's resident memory, in KiB.
    static func residentKiB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// Waits until the daemon's memory holds still (it has read and answered what it
    /// will), and returns it.
    static func settledKiB(_ pid: Int32, timeout: Double = 60) -> Int {
        var last = residentKiB(pid)
        var still = 0
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline && still < 6 {
            usleep(250_000)
            let now = residentKiB(pid)
            still = abs(now - last) < 512 ? still + 1 : 0
            last = now
        }
        return last
    }

    /// Sends `lines` without ever reading, as far as the socket takes them within
    /// `seconds`; returns how many were sent whole.
    static func pipeline(_ client: Client, _ lines: [String], seconds: Double) -> Int {
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        var offset = 0
        let deadline = Date(timeIntervalSinceNow: seconds)
        while offset < bytes.count && Date() < deadline {
            let n = bytes.withUnsafeBytes { buffer in
                send(client.fd.rawValue, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if n > 0 { offset += n } else { usleep(5_000) }
        }
        var whole = 0
        var position = 0
        for line in lines {
            position += line.utf8.count + 1
            if position <= offset { whole += 1 }
        }
        return whole
    }

    /// Reads the answers to `ids` and checks that they are ours, in order.
    static func readAnswers(_ client: Client, ids: ClosedRange<Int>) throws {
        for id in ids {
            let line = try #require(try client.readLine(timeout: 30), "answer \(id) never came")
            let prefix = String(decoding: line.prefix(40), as: UTF8.self)
            #expect(prefix.hasPrefix(#"{"id":\#(id),"ok":true"#), "answer \(id): \(prefix)")
        }
    }

    /// A daemon over `count` photos in a few folders.
    static func daemon(photos count: Int) throws -> Daemon {
        let daemon = Daemon()
        for folder in 0..<10 {
            let dir = daemon.home.mkdir("pics/2024-\(folder)")
            for i in 0..<(count / 10) { Files.write(dir + "/IMG_\(i).JPG") }
        }
        try daemon.start()
        return daemon
    }

    @Test func answersOwedToAClientThatNeverReadsAreBounded() throws {
        let daemon = try Self.daemon(photos: 2000)
        let setup = try daemon.client()
        _ = try setup.result(["cmd": "mode", "mode": "select"])
        #expect(try setup.result(["cmd": "select", "all": true])["count"] as? Int == 2000)
        // Each answer is the whole selection, about 150 kB.
        let answer = try setup.request(["cmd": "selection"])
        let answerBytes = try JSONSerialization.data(withJSONObject: answer).count
        #expect(answerBytes > 100_000)
        let pid = daemon.pid
        let before = Self.settledKiB(pid)

        let count = 400
        let greedy = try daemon.client()
        let sent = Self.pipeline(greedy, (1...count).map { #"{"id":\#($0),"cmd":"selection"}"# }, seconds: 20)
        #expect(sent == count, "the requests fit in the socket's buffer: all are sent")
        let after = Self.settledKiB(pid)
        let grown = (after - before) / 1024
        // Unbounded, the daemon held every answer: 400 of them, 60 MB.
        print("pipelining \(count) answers of \(answerBytes / 1000) kB: resident \(before / 1024) MB -> \(after / 1024) MB")
        #expect(grown < 16, "the daemon grew by \(grown) MB while a client did not read")

        // Others are served meanwhile.
        #expect(try daemon.client().result(["cmd": "status"])["pid"] as? Int == Int(pid))
        // Requests are answered again, in order, as the client reads: well past the bound.
        try Self.readAnswers(greedy, ids: 1...30)
    }

    @Test func listingsOwedToAClientThatNeverReadsAreBounded() throws {
        let daemon = try Self.daemon(photos: 5000)
        let pid = daemon.pid
        _ = try daemon.client().result(["cmd": "list"])
        let before = Self.settledKiB(pid)

        // Thousands of listings of every photo, while the index changes: each waiting
        // listing holds the index as it was when it was asked for.
        let greedy = try daemon.client()
        let other = try daemon.client()
        var sent = 0
        for round in 0..<100 {
            let ids = (sent + 1)...(sent + 50)
            sent += Self.pipeline(greedy, ids.map { #"{"id":\#($0),"cmd":"list"}"# }, seconds: 2)
            Files.write(daemon.root() + "/2024-0/new-\(round).JPG")
            try other.sync()
        }
        let after = Self.settledKiB(pid)
        let grown = (after - before) / 1024
        print("pipelining \(sent) listings of 5000 photos: resident \(before / 1024) MB -> \(after / 1024) MB")
        #expect(sent >= 2000, "the requests fit in the socket's buffer: most are sent")
        #expect(grown < 10, "the daemon grew by \(grown) MB while a client did not read")

        #expect(try other.result(["cmd": "status"])["pid"] as? Int == Int(pid))
        try Self.readAnswers(greedy, ids: 1...10)
    }

    /// A listing followed by other requests in one write: the lines after the listing
    /// waited while it was owed, and were left unanswered once it had been sent whole
    /// (the connection went back to waiting for input it already had).
    @Test func requestsSentWithAListingInOneWriteAreAllAnswered() throws {
        let daemon = try Self.daemon(photos: 20)
        let client = try daemon.client()
        let lines = [#"{"id":1,"cmd":"list","fields":["id"]}"#, #"{"id":2,"cmd":"hello"}"#,
                     #"{"id":3,"cmd":"list"}"#, #"{"id":4,"cmd":"list","limit":1}"#, #"{"id":5,"cmd":"status"}"#]
        #expect(Self.pipeline(client, lines, seconds: 5) == lines.count)
        try Self.readAnswers(client, ids: 1...5)
    }
}
