// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorTestSupport
import Foundation
import Glibc
import Testing

/// A kill -9 in the middle of a `rate` of 1 000 photos: every sidecar afterwards
/// parses (exiftool reads each one whole) and holds the old values or the new, and
/// a photo that had none has none or a whole new one (docs/XMP.md, "Replacing a
/// sidecar safely").
@Suite(.serialized)
struct RateCrashTests {
    static let count = 1000

    static func sidecar(rating: Int) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
        xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" xmp:Rating="\(rating)" crs:Exposure2012="+0.50"/>\
        </rdf:RDF></x:xmpmeta>
        """
    }

    @Test func aKillDuringAThousandWritesLeavesOldOrNewSidecars() throws {
        let d = Daemon()
        let root = d.root()
        // The first half has no sidecar (each gets a new one), the second half one with 1 star.
        let names = (0..<Self.count).map { String(format: "p%04d.jpg", $0) }
        for (index, name) in names.enumerated() {
            Files.write(root + "/" + name, "jpeg \(index)")
            if index >= Self.count / 2 { Files.write(root + "/" + name + ".xmp", Self.sidecar(rating: 1)) }
        }
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        let byPath = try client.idsByPath()
        let ids = try names.map { try #require(byPath[$0], "\($0) is not listed") }

        // The request goes; the daemon is killed once it has created a few sidecars.
        let request = try JSONSerialization.data(withJSONObject: ["id": 1, "cmd": "rate", "ids": ids, "rating": 4, "label": "red"])
        try client.sendLine(String(decoding: request, as: UTF8.self))
        let created = { names.prefix(Self.count / 2).filter { FileManager.default.fileExists(atPath: root + "/" + $0 + ".xmp") }.count }
        try eventually(timeout: 60, "the rate to create 20 sidecars") { created() >= 20 }
        d.kill9()

        // exiftool reads every sidecar, one process for all of them.
        let out = try Tool.run("/usr/bin/exiftool", ["-j", "-n", "-ext", "xmp", "-XMP-xmp:Rating", "-XMP-xmp:Label",
                                                     "-XMP-crs:Exposure2012", root], timeout: 300)
        let files = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]], "\(out.output)")
        var new = 0, old = 0
        for file in files {
            let path = file["SourceFile"] as? String ?? "?"
            #expect(file["Error"] == nil && file["Warning"] == nil, "\(file)")
            let rating = file["Rating"] as? Int, label = file["Label"] as? String
            if rating == 4 && label == "Red" {
                new += 1
            } else if rating == 1 && label == nil && path.hasSuffix(".xmp") {
                old += 1
                #expect(names.suffix(Self.count / 2).contains { path.hasSuffix("/" + $0 + ".xmp") }, "\(path) was never 1 star")
            } else {
                Issue.record("\(path) holds neither the old values nor the new: \(file)")
            }
            if names.suffix(Self.count / 2).contains(where: { path.hasSuffix("/" + $0 + ".xmp") }) {
                let exposure = "\(file["Exposure2012"] ?? "absent")"
                #expect(exposure == "0.5" || exposure == "+0.50", "\(path) lost another editor's setting: \(file)")
            }
        }
        #expect(files.count == created() + Self.count / 2, "\(files.count) sidecars")
        #expect(old > 0, "the kill came after the last write: \(new) new, \(old) old")
        #expect(new >= 20)

        // The daemon starts again over what the kill left, and the same rate finishes.
        try d.start()
        let again = try d.client().result(["cmd": "rate", "ids": ids, "rating": 4, "label": "red"], timeout: 120)
        #expect((again["photos"] as? [[String: Any]])?.count == Self.count)
        let all = try Tool.run("/usr/bin/exiftool", ["-j", "-n", "-ext", "xmp", "-XMP-xmp:Rating", root], timeout: 300)
        let after = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]], "\(all.output)")
        #expect(after.count == Self.count && after.allSatisfy { $0["Rating"] as? Int == 4 })
    }
}
