// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The crash matrix with groups (issue 15): three groups of three files (JPEG, RAW,
/// the shot's `.xmp`) selected and trashed, a SIGKILL at steps before, between and
/// inside the groups' moves, a restart; then every group is either all in place or
/// all in the trash, never half, and an undo brings every file back under the
/// group's id.
@Suite(.serialized)
struct GroupCrashMatrixTests {
    static let groups = 3
    static let perGroup = 3
    static let files = groups * perGroup

    static let crashes: [Crash] =
        [Crash(step: "batch.journaled", count: 1)]
        // Inside the first group, at its end, inside the second and the third.
        + [1, 2, 3, 5, 8].map { Crash(step: "item.renamed", count: $0) }
        + [2, 4, 6].map { Crash(step: "item.info_written", count: $0) }
        + [2].map { Crash(step: "chunk.intent", count: $0) }
        + [1].map { Crash(step: "chunk.synced", count: $0) }
        + [2].map { Crash(step: "chunk.journaled", count: $0) }
        + [Crash(step: "batch.finished", count: 1)]

    /// Whole groups in the trash after a crash at `crash`: a group the kill caught
    /// half-way is put back whole. Chunks of two photos hold one group each (a
    /// group is never split), pipelined as in `CrashMatrixTests`.
    static func groupsTrashed(after crash: Crash) -> Int {
        switch crash.step {
        case "batch.journaled": 0
        case "item.renamed": crash.count / perGroup
        case "item.info_written": (crash.count - 1) / perGroup
        case "chunk.intent": crash.count - 1
        case "chunk.synced", "chunk.journaled": min(crash.count + 1, groups)
        default: groups
        }
    }

    struct Armed {
        let d: Daemon
        let root: String
        let ids: [String: Int]
        let c: Client
        let plan: [String: Any]
        /// Each group's file names, and each file's content.
        let shots: [[String]]
        let content: [String: String]

        init(_ failpoint: String) throws {
            d = Daemon()
            d.configPath = d.home.sub("curatord.json5")
            Files.write(d.home.sub("curatord.json5"),
                        #"{ roots: [{ name: "pics", path: "\#(d.root())", groups: true }] }"# + "\n")
            root = d.root() + "/2024"
            Files.mkdir(root)
            var shots: [[String]] = []
            var content: [String: String] = [:]
            for n in 1...GroupCrashMatrixTests.groups {
                let base = String(format: "IMG_%04d", n)
                let names = [base + ".JPG", base + ".CR2", base + ".xmp"]
                for name in names { content[name] = "content of \(name) " + String(repeating: "x", count: n * 100) }
                shots.append(names)
            }
            content["IMG_0009.JPG"] = "never selected"
            for (name, text) in content { Files.write(root + "/" + name, text) }
            self.shots = shots
            self.content = content
            d.extraEnvironment["CURATORD_FAILPOINT"] = failpoint
            d.extraEnvironment["CURATORD_BATCH_CHUNK"] = "2"
            try d.start()
            c = try d.client()
            ids = try c.idsByPath()
            try c.select("1-\(GroupCrashMatrixTests.groups)")
            plan = try c.prepare()
            #expect(plan["count"] as? Int == GroupCrashMatrixTests.groups && plan["files"] as? Int == GroupCrashMatrixTests.files,
                    "\(plan)")
        }

        /// Per group: how many of its files are at their paths and how many in the
        /// trash (under their own names: no clash here), content checked.
        func census(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) -> [(inPlace: Int, inTrash: Int)] {
            shots.map { names in
                var counts = (inPlace: 0, inTrash: 0)
                for name in names {
                    let here = Files.read(root + "/" + name)
                    let trashed = Files.read(d.trashDirectory + "/files/" + name)
                    #expect((here == nil) != (trashed == nil), "\(context): \(name) is in both places or neither",
                            sourceLocation: sourceLocation)
                    #expect((here ?? trashed) == content[name], "\(context): \(name)'s content changed", sourceLocation: sourceLocation)
                    if here != nil { counts.inPlace += 1 }
                    if trashed != nil {
                        counts.inTrash += 1
                        #expect(FileManager.default.fileExists(atPath: d.trashDirectory + "/info/" + name + ".trashinfo"),
                                "\(context): \(name) is in the trash without its .trashinfo", sourceLocation: sourceLocation)
                    }
                }
                return counts
            }
        }
    }

    static func checkAfterRestart(_ a: Armed, _ crash: Crash, _ context: String) throws {
        let census = a.census(context)
        for (index, group) in census.enumerated() {
            #expect(group.inPlace == 0 || group.inTrash == 0, "\(context): group \(index + 1) is half in the trash: \(group)")
        }
        let trashedGroups = census.count { $0.inTrash == perGroup }
        #expect(trashedGroups == groupsTrashed(after: crash), "\(context): \(census)")
        #expect(Files.read(a.root + "/IMG_0009.JPG") == "never selected")
        let unsettled = try JournalReader.unsettled(stateDirectory: a.d.stateDir)
        #expect(unsettled.isEmpty, "\(context): \(unsettled)")
        CrashCheck.wholeTrashInfos(a.d, context)
    }

    /// Undoes everything; every file back with its content, each group under its id.
    static func undoEverything(_ a: Armed, _ context: String) throws {
        let c = try a.d.client()
        for _ in 0..<10 {
            let response = try c.request(["cmd": "undo"])
            if response["ok"] as? Bool == true { continue }
            let code = (response["error"] as? [String: Any])?["code"] as? String
            #expect(code == "no_such_batch" || code == "not_undoable", "\(context): undo failed: \(response)")
            break
        }
        for group in a.census(context + ", after the undo") { #expect(group.inTrash == 0, "\(context): \(group)") }
        try c.sync()
        let now = try c.idsByPath()
        let lost = a.ids.filter { now[$0.key] != $0.value }.map(\.key).sorted()
        #expect(lost.isEmpty, "\(context): back under another id: \(lost)")
    }

    @Test(arguments: crashes)
    func aCrashDuringABatchOfGroups(_ crash: Crash) throws {
        let a = try Armed(crash.spec)
        try a.d.explainingFailures {
            #expect(throws: (any Error).self, "the confirm loses its connection") { try a.c.confirm(a.plan) }
            try CrashMatrixTests.expectKilled(a.d, at: crash.spec)
            let again = try CrashMatrixTests.restart(a.d)
            try Self.checkAfterRestart(a, crash, crash.spec)
            let batch = try #require(try again.history().first)
            #expect(batch["trashed"] as? Int == Self.groupsTrashed(after: crash) * Self.perGroup, "\(batch)")
            try Self.undoEverything(a, crash.spec)
        }
    }

    /// A crash while recovery puts a half-trashed group back: the next start finishes it.
    @Test func aCrashWhilePuttingAGroupBack() throws {
        let first = Crash(step: "item.renamed", count: 2)
        let second = Crash(step: "undo.renamed", count: 1)
        let a = try Armed(first.spec)
        try a.d.explainingFailures {
            #expect(throws: (any Error).self) { try a.c.confirm(a.plan) }
            try CrashMatrixTests.expectKilled(a.d, at: first.spec)
            a.d.extraEnvironment["CURATORD_FAILPOINT"] = second.spec
            #expect(throws: HarnessError.self, "recovery runs before the socket opens, and dies") { try a.d.start() }
            try CrashMatrixTests.expectKilled(a.d, at: second.spec)
            _ = try CrashMatrixTests.restart(a.d)
            try Self.checkAfterRestart(a, first, "\(first.spec) then \(second.spec)")
            try Self.undoEverything(a, "\(first.spec) then \(second.spec)")
        }
    }
}
