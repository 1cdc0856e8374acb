// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// `rate`: the daemon writes stars, flags and labels into the sidecars other tools
/// read (docs/XMP.md), read back here by exiftool and exempi's CLI.
@Suite(.serialized)
struct RateTests {
    static func exiftool(_ tag: String, _ path: String) throws -> String? {
        let out = try Tool.run("/usr/bin/exiftool", ["-s3", "-n", "-\(tag)", path], timeout: 60)
        try #require(out.status == 0, "exiftool \(tag) \(path): \(out.output)")
        let value = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    static func marks(_ rated: [String: Any], _ key: String) -> String {
        let marks = rated[key] as? [String: Any] ?? [:]
        return "\(marks["rating"].map { "\($0)" } ?? "absent") \(marks["flag"] ?? "absent") \(marks["label"].map { "\($0)" } ?? "absent")"
    }

    @Test func writesTheSidecarsOtherToolsReadAndAnswersWhatWasBefore() throws {
        let d = Daemon()
        let root = d.root()
        Files.write(root + "/IMG_1.CR2", "raw bytes")
        Files.write(root + "/IMG_1.JPG", "jpeg bytes")
        Files.write(root + "/a.jpg", "jpeg bytes")
        // darktable's sidecar of a.jpg: three stars, its history.
        let made = try Tool.run("/usr/bin/exiftool", ["-q", "-o", root + "/a.jpg.xmp", "-XMP-xmp:Rating=3",
                                                      "-XMP-crs:Exposure2012=+0.50"], timeout: 60)
        try #require(made.status == 0, "\(made.output)")
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        let ids = try client.idsByPath()
        let group = try #require(ids["IMG_1.JPG"] ?? ids["IMG_1.CR2"]), single = try #require(ids["a.jpg"])

        // photo.info reads the marks the sidecars say now.
        #expect(Self.marks(try client.result(["cmd": "photo.info", "photo": single]), "marks") == "3 none <null>")
        #expect(Self.marks(try client.result(["cmd": "photo.info", "photo": group]), "marks") == "<null> none <null>")

        // A group without a sidecar gets the RAW's NAME.xmp.
        let first = try client.result(["cmd": "rate", "ids": [group], "rating": 4, "label": "green"])
        let rated = try #require((first["photos"] as? [[String: Any]])?.first, "\(first)")
        #expect(rated["id"] as? Int == group)
        #expect(Self.marks(rated, "previous") == "<null> none <null>", "\(rated)")
        #expect(Self.marks(rated, "marks") == "4 none green", "\(rated)")
        #expect(rated["sidecars"] as? [String] == ["IMG_1.xmp"], "\(rated)")
        #expect(try Self.exiftool("XMP-xmp:Rating", root + "/IMG_1.xmp") == "4")
        #expect(try Self.exiftool("XMP-xmp:Label", root + "/IMG_1.xmp") == "Green")

        #expect(Self.marks(try client.result(["cmd": "photo.info", "photo": group]), "marks") == "4 none green")

        // An existing sidecar is changed in our properties only; the answer has what it said.
        let second = try client.result(["cmd": "rate", "ids": [single], "flag": "reject"])
        let rejected = try #require((second["photos"] as? [[String: Any]])?.first, "\(second)")
        #expect(Self.marks(rejected, "previous") == "3 none <null>", "\(rejected)")
        #expect(Self.marks(rejected, "marks") == "<null> reject <null>", "\(rejected)")
        #expect(rejected["sidecars"] as? [String] == ["a.jpg.xmp"])
        #expect(try Self.exiftool("XMP-xmp:Rating", root + "/a.jpg.xmp") == "-1")
        #expect(try Self.exiftool("XMP-digiKam:PickLabel", root + "/a.jpg.xmp") == "1")
        #expect(try Self.exiftool("XMP-crs:Exposure2012", root + "/a.jpg.xmp") == "+0.50")
        let exempi = try Tool.run("/usr/bin/exempi", ["-X", "-g", "xmp:Rating", root + "/a.jpg.xmp"], timeout: 60)
        #expect(exempi.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "-1", "\(exempi.output)")

        // Undo: what `previous` said, sent back.
        let undo = try client.result(["cmd": "rate", "ids": [single], "rating": 3, "flag": "none", "label": NSNull()])
        let undone = try #require((undo["photos"] as? [[String: Any]])?.first)
        #expect(Self.marks(undone, "marks") == "3 none <null>", "\(undone)")
        #expect(try Self.exiftool("XMP-xmp:Rating", root + "/a.jpg.xmp") == "3")

        // Saying it again writes nothing.
        let again = try client.result(["cmd": "rate", "ids": [single], "rating": 3])
        #expect((again["photos"] as? [[String: Any]])?.first?["sidecars"] as? [String] == [])

        #expect(try client.errorCode(["cmd": "rate", "ids": [single], "label": "orange"]) == "invalid_argument")
        #expect(try client.errorCode(["cmd": "rate", "ids": [single], "rating": 6]) == "invalid_argument")
        #expect(try client.errorCode(["cmd": "rate", "ids": [single], "rating": -1, "flag": "pick"]) == "invalid_argument")
        #expect(try client.errorCode(["cmd": "rate", "ids": [single]]) == "invalid_argument")
        #expect(try client.errorCode(["cmd": "rate", "ids": [999_999], "rating": 1]) == "no_such_photo")
        #expect(try client.errorCode(["cmd": "rate", "rating": 1]) == "empty_selection")
    }

    /// curatorctl rate, pick and reject: by --id or the selection, one line per photo.
    @Test func curatorctlRatesPicksAndRejects() throws {
        let d = Daemon()
        let root = d.root()
        Files.write(root + "/b.jpg", "jpeg bytes")
        try d.start()
        defer { d.stop() }
        let id = try #require(try d.client().idsByPath()["b.jpg"])
        let sidecar = root + "/b.jpg.xmp"

        let rate = try d.ctl(["rate", "3", "--label", "blue", "--id", "\(id)"])
        #expect(rate.status == 0 && rate.stdout.contains("\(id): 3 stars, no flag, blue (was no stars, no flag, no label); wrote b.jpg.xmp"),
                "\(rate)")
        #expect(try Self.exiftool("XMP-xmp:Rating", sidecar) == "3" && Self.exiftool("XMP-xmp:Label", sidecar) == "Blue")

        let reject = try d.ctl(["reject", "--id", "\(id)"])
        #expect(reject.status == 0 && reject.stdout.contains("no stars, rejected, blue"), "\(reject)")
        #expect(try Self.exiftool("XMP-xmp:Rating", sidecar) == "-1" && Self.exiftool("XMP-digiKam:PickLabel", sidecar) == "1")

        // The selection, by default.
        #expect(try d.ctl(["select", "--id", "\(id)"]).status == 0)
        let pick = try d.ctl(["pick"])
        #expect(pick.status == 0 && pick.stdout.contains("\(id): no stars, picked, blue"), "\(pick)")
        #expect(try Self.exiftool("XMP-digiKam:PickLabel", sidecar) == "3" && Self.exiftool("XMP-xmp:Rating", sidecar) == nil)
        let clear = try d.ctl(["rate", "none", "--label", "none", "--flag", "none"])
        #expect(clear.status == 0 && clear.stdout.contains("no stars, no flag, no label (was no stars, picked, blue)"), "\(clear)")

        let wrong = try d.ctl(["rate", "7", "--id", "\(id)"])
        #expect(wrong.status == 2 && wrong.stderr.contains("STARS is 0 to 5"), "\(wrong)")
        let refused = try d.ctl(["rate", "--label", "orange", "--id", "\(id)"])
        #expect(refused.status == 2 && refused.stderr.contains("label must be one of"), "\(refused)")
    }

    /// Two clients rating the same photos at once both succeed (the sidecars'
    /// temporary names are never shared), and each sidecar ends as one of them said.
    @Test func twoClientsRatingTheSamePhotosAtOnce() throws {
        let d = Daemon()
        let root = d.root()
        let names = (0..<8).map { "c\($0).jpg" }
        for name in names { Files.write(root + "/" + name, "jpeg bytes") }
        try d.start()
        defer { d.stop() }
        let byPath = try d.client().idsByPath()
        let ids = try names.map { try #require(byPath[$0]) }
        let failures = Mutex<[String]>([])
        let socket = d.socket
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            do {
                let client = try Client(socket)
                for round in 0..<25 {
                    let response = try client.request(["cmd": "rate", "ids": ids, "rating": lane == 0 ? 1 : 5, "label": round % 2 == 0 ? "red" : "blue"])
                    if response["ok"] as? Bool != true { failures.withLock { $0.append("\(response)") } }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        for name in names {
            #expect(["1", "5"].contains(try Self.exiftool("XMP-xmp:Rating", root + "/" + name + ".xmp")))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasSuffix(".partial") }
        #expect(left.isEmpty, "\(left)")
    }

    /// Rates of different sidecars never wait for each other: while one client's
    /// write hangs on a slow share (Tests/Tools/failing-fs.py: every look-up of
    /// its sidecar takes 4 seconds, as a hung NAS's do), another client rates a
    /// photo in another root and is answered at once; the held one finishes after.
    @Test func aWriteHeldByAHungShareKeepsNoOtherRateWaiting() throws {
        try FailingFS.requireAvailable()
        let d = Daemon(roots: ["pics", "share"])
        Files.write(d.root("pics") + "/b.jpg", "jpeg bytes")
        let backing = d.home.mkdir("backing")
        Files.write(backing + "/a.jpg", "jpeg bytes")
        let made = try Tool.run("/usr/bin/exiftool", ["-q", "-o", backing + "/a.jpg.xmp", "-XMP-xmp:Rating=1"], timeout: 60)
        try #require(made.status == 0, "\(made.output)")
        let fs = try FailingFS(backing: backing, at: d.root("share"), home: d.home)
        defer {
            d.stop()
            withExtendedLifetime(fs) {}
        }
        try d.start()
        let client = try d.client()
        let held = try #require(try client.idsByPath(["root": "share"])["a.jpg"])
        let other = try #require(try client.idsByPath(["root": "pics"])["b.jpg"])

        fs.fail(["a.jpg.xmp sleep 4"])
        // The kernel's cached look-ups of the sidecar expire (FUSE: one second).
        Thread.sleep(forTimeInterval: 1.5)
        // The held rate's answer: whether it succeeded, and what it said.
        let heldAnswer = Mutex<(ok: Bool, text: String)?>(nil)
        let done = DispatchGroup()
        let socket = d.socket
        DispatchQueue.global().async(group: done) {
            let answer = (try? Client(socket))
                .flatMap { try? $0.request(["cmd": "rate", "ids": [held], "rating": 4], timeout: 60) }
            heldAnswer.withLock { $0 = (answer?["ok"] as? Bool == true, "\(answer ?? [:])") }
        }
        // The held rate is in its first look-up of the sidecar by now.
        Thread.sleep(forTimeInterval: 0.5)
        let started = Date()
        let answer = try Client(socket).request(["cmd": "rate", "ids": [other], "rating": 2], timeout: 10)
        let waited = Date().timeIntervalSince(started)
        #expect(answer["ok"] as? Bool == true, "\(answer)")
        #expect(waited < 2, "the rate of b.jpg waited \(waited) s for a.jpg's")
        #expect(heldAnswer.withLock { $0 == nil }, "a.jpg's rate was not held: the test proves nothing")
        #expect(try Self.exiftool("XMP-xmp:Rating", d.root("pics") + "/b.jpg.xmp") == "2")

        fs.heal()
        #expect(done.wait(timeout: .now() + 60) == .success, "the held rate never finished")
        let heldResult = heldAnswer.withLock { $0 }
        #expect(heldResult?.ok == true, "\(heldResult?.text ?? "no answer")")
        #expect(try Self.exiftool("XMP-xmp:Rating", backing + "/a.jpg.xmp") == "4")
    }

    /// A group is rated whole or not at all: when its second sidecar is not XMP,
    /// the first, already written, is put back byte for byte.
    @Test func aGroupIsRatedWholeOrNotAtAll() throws {
        let d = Daemon()
        let root = d.root()
        Files.write(root + "/IMG_2.CR2", "raw bytes")
        Files.write(root + "/IMG_2.JPG", "jpeg bytes")
        let made = try Tool.run("/usr/bin/exiftool", ["-q", "-o", root + "/IMG_2.CR2.xmp", "-XMP-xmp:Rating=1"], timeout: 60)
        try #require(made.status == 0, "\(made.output)")
        Files.write(root + "/IMG_2.xmp", "<x:xmpmeta><not closed")
        let before = try Data(contentsOf: URL(fileURLWithPath: root + "/IMG_2.CR2.xmp"))
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        let ids = try client.idsByPath()
        let group = try #require(ids["IMG_2.JPG"] ?? ids["IMG_2.CR2"], "\(ids)")
        let response = try client.request(["cmd": "rate", "ids": [group], "rating": 5])
        let error = response["error"] as? [String: Any] ?? [:]
        #expect(error["code"] as? String == "sidecar_failed" && error["photos"] as? [Int] == [group], "\(response)")
        #expect((error["message"] as? String)?.contains("IMG_2.xmp") == true, "\(response)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/IMG_2.CR2.xmp")) == before)
        #expect(try Self.exiftool("XMP-xmp:Rating", root + "/IMG_2.CR2.xmp") == "1")
        let names = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".curatord") }.sorted()
        #expect(names == ["IMG_2.CR2", "IMG_2.CR2.xmp", "IMG_2.JPG", "IMG_2.xmp"], "\(names)")
    }

    /// Under the system service (the daemon as root) a user rates only where they
    /// may write; a reader gets permission_denied naming the photo and nothing is
    /// written. A sidecar created for a photo is its owner's.
    @Test func needsTheRightToWriteBesideThePhoto() throws {
        guard SystemUsers.available else {
            print("skipped: needs root, useradd and setpriv to act as another user")
            return
        }
        let users = SystemUsers()
        defer { users.remove() }
        let rater = try users.user("rater")
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        for folder in ["mine", "theirs"] {
            try FileManager.default.createDirectory(atPath: share + "/" + folder, withIntermediateDirectories: true)
        }
        Files.write(share + "/mine/m.jpg", "jpeg bytes")
        Files.write(share + "/theirs/t.jpg", "jpeg bytes")
        chown(share + "/mine", rater.uid, rater.gid)
        chown(share + "/mine/m.jpg", rater.uid, rater.gid)
        chmod(share + "/mine/m.jpg", 0o640)
        chmod(share + "/theirs", 0o755)
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()
        let ids = try d.client().idsByPath()
        let mine = try #require(ids["mine/m.jpg"]), theirs = try #require(ids["theirs/t.jpg"])

        let refused = try PhotoInfoTests.request(d, #"{"id":1,"cmd":"rate","ids":[\#(theirs)],"rating":2}"#, asUser: rater.name)
        let refusal = refused["error"] as? [String: Any] ?? [:]
        #expect(refusal["code"] as? String == "permission_denied" && refusal["photos"] as? [Int] == [theirs], "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: share + "/theirs/t.jpg.xmp"))

        let granted = try PhotoInfoTests.request(d, #"{"id":2,"cmd":"rate","ids":[\#(mine)],"rating":2}"#, asUser: rater.name)
        #expect(granted["ok"] as? Bool == true, "\(granted)")
        var status = stat()
        #expect(stat(share + "/mine/m.jpg.xmp", &status) == 0)
        #expect(status.st_uid == rater.uid && status.st_gid == rater.gid && status.st_mode & 0o777 == 0o640)
        #expect(try Self.exiftool("XMP-xmp:Rating", share + "/mine/m.jpg.xmp") == "2")

        // photo.info shows the marks of sidecars the user could read, no others'.
        let info = try PhotoInfoTests.request(d, #"{"id":3,"cmd":"photo.info","photo":\#(mine)}"#, asUser: rater.name)
        #expect(Self.marks(info["result"] as? [String: Any] ?? [:], "marks") == "2 none <null>", "\(info)")
        _ = try d.client().result(["cmd": "rate", "ids": [theirs], "rating": 5])
        chmod(share + "/theirs/t.jpg.xmp", 0o600)
        let hidden = try PhotoInfoTests.request(d, #"{"id":4,"cmd":"photo.info","photo":\#(theirs)}"#, asUser: rater.name)
        let result = hidden["result"] as? [String: Any] ?? [:]
        #expect(hidden["ok"] as? Bool == true && result["marks"] == nil, "\(hidden)")
    }
}
