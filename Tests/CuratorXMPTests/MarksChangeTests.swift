// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorXMP
import Testing

/// The table of docs/XMP.md, "What curatord writes", one row at a time: what each
/// change does to which property, read back from the packet.
struct MarksChangeTests {
    static let rating = XMPProperty(.xmp, "Rating")
    static let label = XMPProperty(.xmp, "Label")
    static let pickLabel = XMPProperty(.digiKam, "PickLabel")
    static let digiKamColor = XMPProperty(.digiKam, "ColorLabel")
    static let darktableColors = XMPProperty(.darktable, "colorlabels")
    static let percent = XMPProperty(.microsoftPhoto, "Rating")
    static let tagged = XMPProperty(.photoMechanic, "Tagged")

    func packet(_ properties: [String: String], darktableLabels: [Int]? = nil) throws -> XMPPacket {
        try PhotoMarksTests.packet(properties, darktableLabels: darktableLabels)
    }

    @Test func starsOnAnEmptyPacketWriteOnlyXmpRating() throws {
        let packet = try packet([:])
        #expect(try MarksChange(rating: .set(3)).apply(to: packet))
        #expect(packet.text(Self.rating) == "3")
        #expect(!packet.has(Self.pickLabel) && !packet.has(Self.percent) && !packet.has(Self.label))
    }

    @Test func rejectWritesMinusOneAndDigiKamsPickLabel() throws {
        let packet = try packet(["xmp:Rating": "4", "MicrosoftPhoto:Rating": "75", "photomechanic:Tagged": "True"])
        try MarksChange(flag: .reject).apply(to: packet)
        #expect(packet.text(Self.rating) == "-1")
        #expect(packet.text(Self.pickLabel) == "1")
        #expect(packet.text(Self.tagged) == "False")
        #expect(packet.text(Self.percent) == "75", "Windows' stars stay")
        #expect(PhotoMarks(packet) == PhotoMarks(rating: 4, flag: .reject))
    }

    @Test func starsGivenToARejectedPhotoUnrejectIt() throws {
        let packet = try packet(["xmp:Rating": "-1", "digiKam:PickLabel": "1"])
        try MarksChange(rating: .set(2)).apply(to: packet)
        #expect(packet.text(Self.rating) == "2")
        #expect(packet.text(Self.pickLabel) == "0")
        #expect(PhotoMarks(packet) == PhotoMarks(rating: 2, flag: .none))
        // Unless the same change rejects it.
        let again = try self.packet(["xmp:Rating": "-1"])
        try MarksChange(rating: .set(2), flag: .reject).apply(to: again)
        #expect(again.text(Self.rating) == "-1")
    }

    @Test func unrejectingGivesBackTheStarsWindowsKeptOrNone() throws {
        let kept = try packet(["xmp:Rating": "-1", "MicrosoftPhoto:Rating": "50"])
        try MarksChange(flag: PickFlag.none).apply(to: kept)
        #expect(kept.text(Self.rating) == "3")
        let none = try packet(["xmp:Rating": "-1"])
        try MarksChange(flag: .pick).apply(to: none)
        #expect(!none.has(Self.rating))
        #expect(none.text(Self.pickLabel) == "3")
    }

    @Test func noFlagAddsNoPickLabelWhereThereWasNone() throws {
        let packet = try packet(["xmp:Rating": "2"])
        #expect(try !MarksChange(flag: PickFlag.none).apply(to: packet))
        #expect(!packet.has(Self.pickLabel))
    }

    @Test func clearingStarsKeepsAReject() throws {
        let packet = try packet(["xmp:Rating": "-1", "MicrosoftPhoto:Rating": "99"])
        try MarksChange(rating: .cleared).apply(to: packet)
        #expect(packet.text(Self.rating) == "-1")
        #expect(!packet.has(Self.percent))
    }

    @Test func aLabelUpdatesTheCopiesTheFileHas() throws {
        let packet = try packet(["xmp:Label": "Red", "digiKam:ColorLabel": "1"], darktableLabels: [0, 3])
        try MarksChange(label: .set(.purple)).apply(to: packet)
        #expect(packet.text(Self.label) == "Purple")
        #expect(packet.items(Self.darktableColors) == ["4"])
        #expect(packet.text(Self.digiKamColor) == "6")
        // A file without them gains only xmp:Label.
        let plain = try self.packet([:])
        try MarksChange(label: .set(.green)).apply(to: plain)
        #expect(plain.text(Self.label) == "Green" && !plain.has(Self.darktableColors) && !plain.has(Self.digiKamColor))
    }

    @Test func clearingTheLabelClearsEveryCopy() throws {
        let packet = try packet(["xmp:Label": "Blue", "digiKam:ColorLabel": "5"], darktableLabels: [3])
        try MarksChange(label: .cleared).apply(to: packet)
        #expect(!packet.has(Self.label) && !packet.has(Self.darktableColors))
        #expect(packet.text(Self.digiKamColor) == "0")
        #expect(PhotoMarks(packet)?.label == nil)
    }

    @Test func aChangeAlreadySaidChangesNothing() throws {
        let packet = try packet(["xmp:Rating": "5", "xmp:Label": "Yellow"])
        #expect(try !MarksChange(rating: .set(5), label: .set(.yellow)).apply(to: packet))
    }
}
