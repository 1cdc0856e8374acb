// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Foundation
import Testing

@Suite("Trash: .trashinfo format, names, mount table")
struct TrashInfoTests {
    // MARK: Path= encoding

    @Test func keepsUnreservedBytesAndEscapesEverythingElse() {
        #expect(PercentEncoding.encode("/home/ann/Pictures/IMG_0001.JPG") == "/home/ann/Pictures/IMG_0001.JPG")
        #expect(PercentEncoding.encode("/a b/c%d#e?f") == "/a%20b/c%25d%23e%3Ff")
        #expect(PercentEncoding.encode("x-y._~z") == "x-y._~z")
        #expect(PercentEncoding.encode("été.jpg") == "%C3%A9t%C3%A9.jpg")
        #expect(PercentEncoding.encode("a+b=c&d;e,f'g(h)i*j!k$l:m@n[o]") ==
            "a%2Bb%3Dc%26d%3Be%2Cf%27g%28h%29i%2Aj%21k%24l%3Am%40n%5Bo%5D")
        #expect(PercentEncoding.encode("line\nbreak\t") == "line%0Abreak%09")
    }

    @Test func everyByteRoundTrips() {
        let all = ByteString((1...255).map { UInt8($0) })
        let encoded = PercentEncoding.encode(all)
        #expect(encoded.utf8.allSatisfy { $0 < 0x80 && $0 > 0x20 })
        #expect(PercentEncoding.decode(encoded.utf8) == all)
    }

    @Test func nonUTF8NamesAreEscapedByteForByte() {
        let name = ByteString([0x2F, 0x70, 0xFF, 0xFE, 0x2E, 0x6A, 0x70, 0x67])  // "/p\xff\xfe.jpg"
        #expect(name.utf8String == nil)
        #expect(PercentEncoding.encode(name) == "/p%FF%FE.jpg")
        #expect(PercentEncoding.decode("/p%ff%Fe.jpg".utf8) == name)
    }

    @Test func malformedEscapesAreRejected() {
        #expect(PercentEncoding.decode("abc%".utf8) == nil)
        #expect(PercentEncoding.decode("abc%4".utf8) == nil)
        #expect(PercentEncoding.decode("abc%G1".utf8) == nil)
    }

    // MARK: the file

    @Test func rendersTheSpecFormat() {
        let info = TrashInfo(path: "/home/ann/Pictures/a b.jpg", deletionDate: "2026-11-29T14:05:09")
        #expect(String(decoding: info.rendered(), as: UTF8.self) ==
            "[Trash Info]\nPath=/home/ann/Pictures/a%20b.jpg\nDeletionDate=2026-11-29T14:05:09\n")
    }

    @Test func parsesWhatItWritesAndWhatOthersWrite() {
        let info = TrashInfo(path: ByteString([0x2F, 0x78, 0x80]), deletionDate: "2026-01-02T03:04:05")
        #expect(TrashInfo.parse(info.rendered()) == info)
        let foreign = Array("# comment\r\n[Trash Info]\r\nDeletionDate=2020-02-02T02:02:02\r\nPath=rel/dir/f%20g\r\nX-Other=1\r\n".utf8)
        #expect(TrashInfo.parse(foreign) == TrashInfo(path: "rel/dir/f g", deletionDate: "2020-02-02T02:02:02"))
    }

    @Test func rejectsFilesWithoutGroupOrPath() {
        #expect(TrashInfo.parse(Array("Path=/x\n".utf8)) == nil)
        #expect(TrashInfo.parse(Array("[Trash Info]\nDeletionDate=2020-01-01T00:00:00\n".utf8)) == nil)
        #expect(TrashInfo.parse(Array("[Other]\nPath=/x\n".utf8)) == nil)
        #expect(TrashInfo.parse([]) == nil)
        #expect(TrashInfo.parse(Array("[Trash Info]\nPath=/x%zz\n".utf8)) == nil)
    }

    // MARK: DeletionDate

    @Test func deletionDateIsLocalTimeWithoutZoneOrFraction() {
        let time = LocalTime(year: 2026, month: 3, day: 7, hour: 4, minute: 5, second: 9, utcOffsetSeconds: 3600)
        #expect(time.trashInfoText == "2026-03-07T04:05:09")
        #expect(time.rfc3339Text == "2026-03-07T04:05:09+01:00")
        #expect(LocalTime(year: 999, month: 12, day: 31, hour: 23, minute: 59, second: 59, utcOffsetSeconds: -16200).rfc3339Text
            == "0999-12-31T23:59:59-04:30")
    }

    @Test func deletionDateAgreesWithTheSystemsLocalZone() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        for seconds: Int64 in [0, 1_000_000_000, 1_790_000_000, 1_800_000_123] {
            #expect(LocalTime(epochSeconds: seconds).trashInfoText == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
    }

    // MARK: unique names

    @Test func candidatesNumberBeforeTheExtension() {
        #expect(TrashNaming.candidate(for: "IMG_1.jpg", attempt: 1) == "IMG_1.jpg")
        #expect(TrashNaming.candidate(for: "IMG_1.jpg", attempt: 2) == "IMG_1.2.jpg")
        #expect(TrashNaming.candidate(for: "IMG_1.jpg", attempt: 10) == "IMG_1.10.jpg")
        #expect(TrashNaming.candidate(for: "archive.tar.gz", attempt: 3) == "archive.tar.3.gz")
        #expect(TrashNaming.candidate(for: "noext", attempt: 2) == "noext.2")
        #expect(TrashNaming.candidate(for: ".hidden", attempt: 2) == ".hidden.2")
        #expect(TrashNaming.candidate(for: "trailing.", attempt: 2) == "trailing..2")
        let raw = ByteString([0xFF, 0x2E, 0x6A, 0x70, 0x67])
        #expect(TrashNaming.candidate(for: raw, attempt: 2) == ByteString([0xFF, 0x2E, 0x32, 0x2E, 0x6A, 0x70, 0x67]))
    }

    @Test func longNamesLeaveRoomForTheInfoSuffixWithoutSplittingCharacters() {
        let long = ByteString(String(repeating: "é", count: 126) + ".jpg")  // 256 bytes
        for attempt in [1, 2, 12345] {
            let name = TrashNaming.candidate(for: long, attempt: attempt)
            #expect(name.count + ".trashinfo".utf8.count <= 255)
            #expect(name.utf8String != nil, "a UTF-8 name stays valid UTF-8")
            #expect(name.lowercasedExtension == "jpg")
            #expect(name.lossyString.hasSuffix(attempt == 1 ? "é.jpg" : ".\(attempt).jpg"))
        }
        let absurdExtension = ByteString("a." + String(repeating: "x", count: 300))
        #expect(TrashNaming.candidate(for: absurdExtension, attempt: 2).count <= 245)
    }

    // MARK: mount table

    @Test func parsesMountinfoWithEscapesAndOptionalFields() {
        let text = """
            22 27 0:21 / /proc rw,relatime - proc proc rw
            27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
            98 27 7:0 / /mnt/my\\040photos rw,relatime shared:5 master:2 - ext4 /dev/loop0 rw
            99 27 254:0 /srv/photos /home/ann/Pictures rw - ext4 /dev/vda rw
            garbage line
            """
        let entries = MountTable.parse(Array(text.utf8))
        #expect(entries.count == 4)
        #expect(entries[2] == MountEntry(id: 98, parentID: 27, mountPoint: "/mnt/my photos", fsType: "ext4", device: "7:0",
                                         root: "/", readOnly: false))
        #expect(MountTable.entry(id: 99, in: entries)?.mountPoint == "/home/ann/Pictures")
        // A bind mount of a subdirectory placed elsewhere: its mount point is its top directory.
        #expect(MountTable.enclosingWhole(of: entries[3], in: entries) == nil)
    }

    /// What ReadWritePaths= makes in a service's namespace: a subdirectory bound onto
    /// itself, read-only around it; the whole file system is found, and the options read.
    @Test func findsTheWholeFileSystemAroundABindMountInPlace() {
        let text = """
            27 1 254:0 / / ro,relatime shared:1 - ext4 /dev/vda rw
            40 27 254:0 /srv/photos /srv/photos rw,relatime - ext4 /dev/vda rw
            41 27 7:0 / /srv/disk ro - ext4 /dev/loop0 rw
            42 41 7:0 /photos /srv/disk/photos rw - ext4 /dev/loop0 rw
            """
        let entries = MountTable.parse(Array(text.utf8))
        #expect(entries[0].readOnly && !entries[1].readOnly)
        #expect(MountTable.enclosingWhole(of: entries[1], in: entries)?.mountPoint == "/")
        #expect(MountTable.enclosingWhole(of: entries[3], in: entries)?.mountPoint == "/srv/disk")
        #expect(MountTable.enclosingWhole(of: entries[2], in: entries) == nil)
        // The host's mount of a btrfs subvolume (root "/@"), and one ReadWritePaths= below
        // another: walked up to the mount nearest the file system's top.
        let subvolume = MountTable.parse(Array("""
            27 1 0:31 /@ / ro,relatime shared:1 - btrfs /dev/vda2 rw
            40 27 0:31 /@/srv/photos /srv/photos rw,relatime - btrfs /dev/vda2 rw
            41 40 0:31 /@/srv/photos/family /srv/photos/family rw,relatime - btrfs /dev/vda2 rw
            42 27 0:31 /@home /home rw - btrfs /dev/vda2 rw
            43 27 0:31 /@/srv/photos /mnt/photos rw - btrfs /dev/vda2 rw
            """.utf8))
        #expect(MountTable.enclosingWhole(of: subvolume[1], in: subvolume)?.mountPoint == "/")
        #expect(MountTable.enclosingWhole(of: subvolume[2], in: subvolume)?.mountPoint == "/")
        #expect(MountTable.enclosingWhole(of: subvolume[3], in: subvolume) == nil, "another subvolume: a top directory")
        #expect(MountTable.enclosingWhole(of: subvolume[4], in: subvolume) == nil, "a bind placed elsewhere: a top directory")
        #expect(MountTable.unescape("a\\134b\\011c\\012".utf8) == ByteString("a\\b\tc\n"))
        #expect(MountTable.unescape("trailing\\04".utf8) == ByteString("trailing\\04"))
    }

    /// A mount table larger than the limit is an error, not its first 16 MiB: the
    /// mount a photo is on may be past the cut, and another mount's trash chosen.
    @Test func aMountTableTooLargeToReadWholeIsAnError() throws {
        let box = try Sandbox()
        let path = box.base.appending("mountinfo")
        let line = Array("27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n".utf8)
        var text: [UInt8] = []
        while text.count <= 16 << 20 { text += line }
        try Sandbox.write(path, text)
        #expect(throws: SystemError.self) { try MountTable.load(from: path) }
        do {
            _ = try MountTable.load(from: path)
        } catch {
            #expect(error.errno == .fileTooLarge && error.description.contains("more than 16 MiB"), "\(error)")
        }
    }

    @Test func theLiveMountTableHasTheRootMount() throws {
        let entries = try MountTable.load()
        let rootID = try DirectoryHandle.open("/", followingSymlinks: true).mountID()
        #expect(MountTable.entry(id: rootID, in: entries)?.mountPoint == "/")
    }
}
