// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Bursts against the real daemon and its thumbnailer: a tree of camera JPEGs with
/// known bursts (bench/burst_tree.py: frames of one scene with small shifts, crops,
/// exposure changes and one blurred frame in every other burst, by libvips) and
/// look-alikes that are no burst (another camera at the same moment, the same
/// camera minutes later, another scene a second later). The stacks the daemon lists
/// match the truth with precision ≥ 0.95 and recall ≥ 0.9 over pairs of frames,
/// the keeper of a blurred burst is never its blurred frame, and `select
/// --stack-rest` takes every frame but the keepers, none protected.
@Suite(.serialized)
struct StackTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    struct Truth {
        /// File name → burst (nil: no burst).
        var bursts: [String: String?]
        /// Burst → its blurred frame's name.
        var blurred: [String: String]
    }

    /// The daemon over a tree of `bursts` bursts; the second burst is in a protected folder.
    private static func daemon(bursts: Int) throws -> (Daemon, Truth) {
        let d = Daemon(roots: ["pics"])
        let pics = d.root("pics")
        let tree = pics + "/2024"
        let out = try Tool.run("/usr/bin/python3", [package + "/bench/burst_tree.py", tree, "--bursts", String(bursts),
                                                    "--width", "640", "--height", "480", "--cache", d.home.path], timeout: 600)
        guard out.status == 0 else { throw HarnessError("burst_tree.py: \(out.stderr)") }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tree + "/truth.json"))) as? [String: Any]
        let bursts = (json?["bursts"] as? [String: Any] ?? [:]).mapValues { $0 as? String }
        let truth = Truth(bursts: bursts, blurred: json?["blurred"] as? [String: String] ?? [:])
        try FileManager.default.removeItem(atPath: tree + "/truth.json")
        try FileManager.default.createDirectory(atPath: pics + "/Keep", withIntermediateDirectories: true)
        for name in bursts.keys where name.hasPrefix("burst01-") {
            #expect(rename(tree + "/" + name, pics + "/Keep/" + name) == 0)
        }
        try d.useConfig("""
            { roots: [{ name: "pics", path: "\(pics)", protected: ["Keep"] }] }
            """)
        try d.start()
        return (d, truth)
    }

    /// File name → (stack, keeper, count) of a listing of stacks, once every photo is measured.
    private static func stacks(_ c: Client, photos: Int) throws -> [String: (stack: Int, keeper: Bool, count: Int)] {
        try eventually(timeout: 120, "the thumbnails of \(photos) photos") {
            let s = try c.result(["cmd": "status"])["thumbnails"] as? [String: Any] ?? [:]
            return s["backlog"] as? Int == 0 && s["ready"] as? Int == photos
        }
        var listed: [String: (stack: Int, keeper: Bool, count: Int)] = [:]
        for p in try c.photos(["filter": ["stacks": true]]) {
            guard let path = p["path"] as? String, let stack = p["stack"] as? Int, let keeper = p["stack_keeper"] as? Bool,
                  let count = p["stack_count"] as? Int else { continue }
            listed[String(path.split(separator: "/").last ?? "")] = (stack, keeper, count)
        }
        return listed
    }

    @Test func burstsAreFoundWithTheirSharpFrameKept() throws {
        let (d, truth) = try Self.daemon(bursts: 10)
        let c = try d.client()
        let listed = try Self.stacks(c, photos: truth.bursts.count)
        // Pairs of frames: in one stack as listed, in one burst in truth.
        let names = truth.bursts.keys.sorted()
        var (truePairs, falsePairs, missedPairs) = (0, 0, 0)
        for (i, a) in names.enumerated() {
            for b in names[(i + 1)...] {
                let same = listed[a].map { x in listed[b].map { $0.stack == x.stack } ?? false } ?? false
                let truly = truth.bursts[a].flatMap { $0 }.map { $0 == truth.bursts[b].flatMap { $0 } } ?? false
                if same && truly { truePairs += 1 } else if same { falsePairs += 1 } else if truly { missedPairs += 1 }
            }
        }
        let precision = Double(truePairs) / Double(max(1, truePairs + falsePairs))
        let recall = Double(truePairs) / Double(max(1, truePairs + missedPairs))
        #expect(truePairs > 0)
        #expect(precision >= 0.95, "precision \(precision): \(falsePairs) false pairs")
        #expect(recall >= 0.9, "recall \(recall): \(missedPairs) pairs missed")
        // The keeper of a blurred burst is a sharp frame of it.
        #expect(truth.blurred.count >= 4)
        for (burst, blurred) in truth.blurred {
            let keepers = listed.filter { truth.bursts[$0.key] == burst && $0.value.keeper }.map(\.key)
            #expect(keepers.count == 1 && keepers.first != blurred, "\(burst): kept \(keepers), blurred \(blurred)")
        }
        // Collapsed: each stack is one position, the keeper's, with its count.
        let all = try c.photos()
        let collapsed = try c.photos(["filter": ["collapse_stacks": true]])
        let stacks = Dictionary(grouping: listed.values, by: \.stack)
        #expect(collapsed.count == all.count - stacks.values.reduce(0) { $0 + $1.count - 1 }, "\(collapsed.count) of \(all.count)")
        #expect(collapsed.filter { $0["stack"] != nil }.count == stacks.count)
        #expect(collapsed.allSatisfy { $0["stack"] == nil || $0["stack_keeper"] as? Bool == true })
        let ls = try d.ctl(["ls", "--stacks"])
        #expect(ls.status == 0 && ls.stdout.contains("(\(listed.count) photos"), "\(ls.stdout)")
        #expect(ls.stdout.split(separator: "\n").filter { $0.contains("stack ") && $0.contains("*") }.count == stacks.count, "\(ls.stdout)")
        #expect(d.stop() == 0)
    }

    @Test func selectStackRestTakesEveryFrameButTheKeepersAndNoneProtected() throws {
        let (d, truth) = try Self.daemon(bursts: 4)
        let c = try d.client()
        let listed = try Self.stacks(c, photos: truth.bursts.count)
        let ids = try c.idsByPath()
        let protectedStacks = Set(listed.filter { $0.key.hasPrefix("burst01-") }.map(\.value.stack))
        #expect(protectedStacks.count == 1, "the protected burst is found: \(listed)")
        let expected = Set(listed.filter { !$0.value.keeper && !protectedStacks.contains($0.value.stack) }
            .compactMap { ids["2024/" + $0.key] })
        #expect(!expected.isEmpty)
        // deselect and toggle refuse it.
        _ = try c.result(["cmd": "mode", "mode": "select"])
        #expect(try c.errorCode(["cmd": "toggle", "stacks": "rest"]) == "invalid_argument")
        let select = try d.ctl(["select", "--stack-rest"])
        #expect(select.status == 0, "\(select.stderr)")
        let chosenStacks = Set(listed.map(\.value.stack)).count - protectedStacks.count
        #expect(select.stdout.contains("frames of \(chosenStacks) stacks chosen"), "\(select.stdout)")
        #expect(select.stdout.contains("1 with every other frame protected"), "\(select.stdout)")
        let items = try c.result(["cmd": "selection"])["items"] as? [[String: Any]] ?? []
        #expect(Set(items.compactMap { $0["id"] as? Int }) == expected)
        // Again: every stack's keeper is still unselected, so the same frames; none twice.
        let again = try c.result(["cmd": "select", "stacks": "rest"])
        #expect(again["count"] as? Int == expected.count, "\(again)")
        #expect(d.stop() == 0)
    }

    /// Stars come before sharpness: the blurred frame of a burst, rated (`rate`, its
    /// marks in the index), is its keeper, kept because `rated`.
    @Test func aRatedFrameIsKeptBeforeTheSharpest() throws {
        let (d, truth) = try Self.daemon(bursts: 2)
        let c = try d.client()
        let listed = try Self.stacks(c, photos: truth.bursts.count)
        let (burst, blurred) = try #require(truth.blurred.first { listed[$0.value] != nil && !$0.value.hasPrefix("burst01-") })
        #expect(listed[blurred]?.keeper == false, "the sharpest is kept while nothing is rated: \(listed)")
        let ids = try c.idsByPath()
        let id = try #require(ids.first { $0.key.hasSuffix("/" + blurred) }?.value)
        _ = try c.result(["cmd": "rate", "ids": [id], "rating": 5])
        let frames = try c.photos(["filter": ["stacks": true]]).filter { p in
            (p["path"] as? String).map { truth.bursts[String($0.split(separator: "/").last ?? "")] == burst } ?? false
        }
        let keepers = frames.filter { $0["stack_keeper"] as? Bool == true }
        #expect(keepers.count == 1 && keepers.first?["id"] as? Int == id, "\(frames)")
        #expect(keepers.first?["stack_reason"] as? String == "rated", "\(frames)")
        #expect(d.stop() == 0)
    }

    /// The next `sets` event of `state`, others skipped; nil after `timeout`.
    private static func setsEvent(_ c: Client, _ state: String, timeout: Double) throws -> [String: Any]? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let event = try c.nextEvent(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if event["event"] as? String == "sets" && event["state"] as? String == state { return event }
        }
        return nil
    }

    /// The measures a slot of `stack_looks` holds for `id` (nil: an empty slot).
    private static func storedLook(_ d: Daemon, _ id: Int) throws -> String? {
        let (chunk, slot) = (id / 20, id % 20)
        let sql = "SELECT hex(substr(looks, \(slot * 18 + 1), 18)) FROM stack_looks WHERE chunk = \(chunk)"
        let out = try Tool.run("/usr/bin/sqlite3", [d.stateDir + "/index.sqlite", sql], timeout: 10)
        let hex = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return hex.isEmpty || hex.allSatisfy({ $0 == "0" }) ? nil : hex
    }

    @Test func measuresOfPhotosGoneLeaveTheIndex() throws {
        let (d, truth) = try Self.daemon(bursts: 2)
        let c = try d.client()
        _ = try Self.stacks(c, photos: truth.bursts.count)
        let photos = try c.photos([:])
        let ids = Dictionary(uniqueKeysWithValues: photos.compactMap { p -> (String, Int)? in
            guard let path = p["path"] as? String, let id = p["id"] as? Int else { return nil }
            return (path, id)
        })
        let (gonePath, goneID) = try #require(ids.first { $0.key.hasPrefix("2024/burst00-") })
        let (keptPath, keptID) = try #require(ids.first { $0.key.hasPrefix("2024/") && $0.key != gonePath })
        #expect(d.stop() == 0)
        #expect(try Self.storedLook(d, goneID) != nil && Self.storedLook(d, keptID) != nil, "measured before")
        // Gone while the daemon was down: the scan of the start removes it, and its measures.
        #expect(unlink(d.root("pics") + "/" + gonePath) == 0)
        try d.start()
        let again = try d.client()
        try eventually(timeout: 30, "the photo gone from the index") {
            (try again.photos([:])).count == photos.count - 1
        }
        try eventually(timeout: 30, "its measures gone from stack_looks") { try Self.storedLook(d, goneID) == nil }
        #expect(try Self.storedLook(d, keptID) != nil, "\(keptPath) keeps its measures")
        #expect(d.stop() == 0)
    }

    @Test func subscribersAreToldWhenAStackChanges() throws {
        let (d, truth) = try Self.daemon(bursts: 3)
        let c = try d.client()
        let listed = try Self.stacks(c, photos: truth.bursts.count)
        let events = try d.client()
        _ = try events.result(["cmd": "subscribe"])
        // Nothing changes: no event (the sets as first seen are what a client lists).
        #expect(try Self.setsEvent(events, "stacks", timeout: 3) == nil)
        // A frame that is not kept leaves: its stack changed.
        let frame = try #require(listed.first { $0.key.hasPrefix("burst00-") && !$0.value.keeper }?.key)
        #expect(unlink(d.root("pics") + "/2024/" + frame) == 0)
        let event = try Self.setsEvent(events, "stacks", timeout: 15)
        #expect(event?["count"] as? Int == Set(listed.map(\.value.stack)).count, "\(String(describing: event))")
        #expect(d.stop() == 0)
    }
}
