// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Groups (issue 15) kept right by the real daemon as files come, go and are
/// renamed in a watched folder, and across a restart with another setting.
extension Watch {
    @Suite struct GroupWatching {
        /// A daemon whose one root `pics` groups files (`extra` adds keys to it).
        static func daemon(groups: Bool = true, extra: String = "") -> Daemon {
            let daemon = Daemon()
            daemon.configPath = daemon.home.sub("curatord.json5")
            writeConfig(daemon, groups: groups, extra: extra)
            return daemon
        }

        static func writeConfig(_ daemon: Daemon, groups: Bool, extra: String = "") {
            Files.write(daemon.home.sub("curatord.json5"),
                        #"{ roots: [{ name: "pics", path: "\#(daemon.root())", groups: \#(groups)\#(extra) }] }"# + "\n")
        }

        static func events(_ seen: [[String: Any]], _ kind: String) -> [[String: Any]] {
            seen.filter { $0["event"] as? String == kind }
        }

        @Test func aScannedFolderListsEachShotOnceByItsRenderedPhoto() throws {
            let daemon = Self.daemon()
            let root = daemon.root()
            for name in ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0002.JPG", "IMG_0002.HEIC",
                         "IMG_0002.xmp", "IMG_0003.xmp", "IMG_0004.HEIC", "IMG_0004.MOV", "IMG_0004.AAE", "notes.txt"] {
                Files.write(root + "/" + name)
            }
            try daemon.start()
            let c = try daemon.client()
            #expect(try c.photos().compactMap { $0["path"] as? String }
                    == ["IMG_0001.JPG", "IMG_0002.HEIC", "IMG_0002.JPG", "IMG_0004.HEIC"])
        }

        @Test func aRawAndASidecarArrivingLaterJoinThePhotoAsOneChangedEventEach() throws {
            let daemon = Self.daemon()
            let root = daemon.root()
            Files.write(root + "/IMG_0001.JPG", "jpeg")
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            let id = try #require(try c.idsByPath()["IMG_0001.JPG"])

            Files.write(root + "/IMG_0001.CR2", "raw")
            try c.sync()
            #expect(try c.idsByPath() == ["IMG_0001.JPG": id], "the RAW joined; the photo kept its id")
            var seen = try watcher.drainEvents()
            #expect(seen.count == 1, "\(seen)")
            #expect(seen.first?["event"] as? String == "changed")
            #expect((seen.first?["photo"] as? [String: Any])?["id"] as? Int == id)

            // darktable writes the .xmp when an edit is made: it joins, one event.
            Files.write(root + "/IMG_0001.CR2.xmp", "<x:xmpmeta/>")
            try c.sync()
            #expect(try c.idsByPath() == ["IMG_0001.JPG": id])
            seen = try watcher.drainEvents()
            #expect(seen.map { $0["event"] as? String } == ["changed"], "\(seen)")

            // Renamed out of the group: the JPEG keeps its id (a move), the RAW is a
            // photo of its own again (added), the group's .xmp of the RAW goes with it.
            Files.rename(root + "/IMG_0001.JPG", root + "/holiday.jpg")
            try c.sync()
            let after = try c.idsByPath()
            #expect(after["holiday.jpg"] == id)
            let rawID = try #require(after["IMG_0001.CR2"])
            #expect(rawID != id && after.count == 2)
            seen = try watcher.drainEvents()
            #expect(Self.events(seen, "moved").compactMap { ($0["photo"] as? [String: Any])?["id"] as? Int } == [id])
            #expect(Self.events(seen, "added").compactMap { ($0["photo"] as? [String: Any])?["id"] as? Int } == [rawID])
            #expect(Self.events(seen, "removed").isEmpty, "\(seen)")

            // Renamed back: the pair forms again under the JPEG's id; the RAW's own listing goes.
            Files.rename(root + "/holiday.jpg", root + "/IMG_0001.JPG")
            try c.sync()
            #expect(try c.idsByPath() == ["IMG_0001.JPG": id])
            seen = try watcher.drainEvents()
            #expect(Self.events(seen, "removed").compactMap { $0["photo_id"] as? Int } == [rawID], "\(seen)")
            #expect(Self.events(seen, "added").isEmpty, "\(seen)")
        }

        @Test func aRootShowingTheRawShowsItUnderTheIDThePhotoHad() throws {
            let daemon = Self.daemon(extra: #", group_shows: "raw""#)
            let root = daemon.root()
            Files.write(root + "/IMG_0001.JPG", "jpeg")
            try daemon.start()
            let c = try daemon.client()
            let id = try #require(try c.idsByPath()["IMG_0001.JPG"])
            Files.write(root + "/IMG_0001.NEF", "raw")
            try c.sync()
            #expect(try c.idsByPath() == ["IMG_0001.NEF": id])
        }

        @Test func aSelectedGroupStaysSelectedWhenItsShownFileIsDeletedByAnotherProgram() throws {
            let daemon = Self.daemon()
            let root = daemon.root()
            Files.write(root + "/IMG_0001.JPG", "jpeg")
            Files.write(root + "/IMG_0001.CR2", "raw")
            Files.write(root + "/IMG_0002.JPG", "other")
            try daemon.start()
            let c = try daemon.client()
            let id = try #require(try c.idsByPath()["IMG_0001.JPG"])
            try c.select("1")
            let watcher = try daemon.client()
            try watcher.subscribe()

            Files.remove(root + "/IMG_0001.JPG")
            try c.sync()
            #expect(try c.idsByPath() == ["IMG_0001.CR2": id, "IMG_0002.JPG": try #require(try c.idsByPath()["IMG_0002.JPG"])])
            let selection = try c.result(["cmd": "selection"])
            #expect((selection["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [id], "\(selection)")
            let seen = try watcher.drainEvents()
            #expect(seen.compactMap { $0["event"] as? String }.filter { $0 != "selection" } == ["changed"], "\(seen)")

            // The last photo of it gone, the group leaves the selection.
            Files.remove(root + "/IMG_0001.CR2")
            try c.sync()
            let emptied = try c.result(["cmd": "selection"])
            #expect((emptied["items"] as? [[String: Any]])?.isEmpty == true, "\(emptied)")
        }

        @Test func groupingTurnedOnOverAnIndexKeepsTheIDsAndOffListsEveryPhotoAgain() throws {
            let daemon = Self.daemon(groups: false)
            let root = daemon.root()
            Files.write(root + "/IMG_0001.JPG", "jpeg")
            Files.write(root + "/IMG_0001.CR2", "raw")
            Files.write(root + "/IMG_0001.xmp", "xmp")
            try daemon.start()
            var c = try daemon.client()
            let off = try c.idsByPath()
            #expect(Set(off.keys) == ["IMG_0001.JPG", "IMG_0001.CR2"], "a root that does not group lists no sidecar")
            #expect(daemon.stop() == 0)

            Self.writeConfig(daemon, groups: true)
            try daemon.start()
            c = try daemon.client()
            #expect(try c.idsByPath() == ["IMG_0001.JPG": try #require(off["IMG_0001.JPG"])])
            #expect(daemon.stop() == 0)

            Self.writeConfig(daemon, groups: false)
            try daemon.start()
            c = try daemon.client()
            #expect(try c.idsByPath() == off)
        }
    }
}
