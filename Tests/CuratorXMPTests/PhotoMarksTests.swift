// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorXMP
import Testing

/// Reading a packet's marks by the order of docs/XMP.md, one property combination
/// at a time.
struct PhotoMarksTests {
    /// A packet with these simple properties (`prefix:Name` → value) and, when
    /// given, darktable's colour labels.
    static func packet(_ properties: [String: String], darktableLabels: [Int]? = nil) throws -> XMPPacket {
        let namespaces = [
            "xmp": "http://ns.adobe.com/xap/1.0/", "digiKam": "http://www.digikam.org/ns/1.0/",
            "darktable": "http://darktable.sf.net/", "MicrosoftPhoto": "http://ns.microsoft.com/photo/1.0",
            "photomechanic": "http://ns.camerabits.com/photomechanic/1.0/",
        ]
        let declarations = namespaces.map { " xmlns:\($0.key)=\"\($0.value)\"" }.joined()
        let attributes = properties.map { " \($0.key)=\"\($0.value)\"" }.joined()
        let labels = darktableLabels.map { items in
            "<darktable:colorlabels><rdf:Seq>" + items.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Seq></darktable:colorlabels>"
        } ?? ""
        let text = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about=""\(declarations)\(attributes)>\(labels)</rdf:Description></rdf:RDF></x:xmpmeta>
            """
        return try XMPPacket(parsing: Array(text.utf8), path: nil)
    }

    static func marks(_ properties: [String: String], darktableLabels: [Int]? = nil) throws -> PhotoMarks? {
        PhotoMarks(try packet(properties, darktableLabels: darktableLabels))
    }

    @Test func aPacketWithoutOurPropertiesSaysNothing() throws {
        #expect(try Self.marks([:]) == nil)
        #expect(try Self.marks(["xmp:CreatorTool": "darktable 4.6"]) == nil)
    }

    @Test(arguments: [
        ("0", 0), ("1", 1), ("5", 5), ("3.0", 3), (" 4 ", 4), ("2.6", 3),
    ])
    func starsFromXmpRating(text: String, stars: Int) throws {
        #expect(try Self.marks(["xmp:Rating": text]) == PhotoMarks(rating: stars))
    }

    @Test func ratingMinusOneIsAReject() throws {
        #expect(try Self.marks(["xmp:Rating": "-1"]) == PhotoMarks(rating: nil, flag: .reject))
    }

    @Test(arguments: ["6", "-2", "abc", "", "nan", "inf"])
    func aRatingOutOfRangeIsNoRating(text: String) throws {
        #expect(try Self.marks(["xmp:Rating": text]) == PhotoMarks.unmarked)
    }

    @Test(arguments: [(0, 0), (1, 1), (12, 1), (13, 2), (25, 2), (50, 3), (75, 4), (88, 5), (99, 5), (100, 5)])
    func windowsPercentagesWhenThereIsNoXmpRating(percent: Int, stars: Int) throws {
        #expect(try Self.marks(["MicrosoftPhoto:Rating": String(percent)])?.rating == stars)
        // xmp:Rating comes first.
        #expect(try Self.marks(["MicrosoftPhoto:Rating": String(percent), "xmp:Rating": "2"])?.rating == 2)
    }

    @Test func aRejectedPhotoKeepsTheStarsWindowsHas() throws {
        #expect(try Self.marks(["xmp:Rating": "-1", "MicrosoftPhoto:Rating": "75"]) == PhotoMarks(rating: 4, flag: .reject))
    }

    @Test func digiKamsPickLabel() throws {
        #expect(try Self.marks(["digiKam:PickLabel": "0"])?.flag == PickFlag.none)
        #expect(try Self.marks(["digiKam:PickLabel": "1"])?.flag == .reject)
        #expect(try Self.marks(["digiKam:PickLabel": "2"])?.flag == PickFlag.none)  // pending
        #expect(try Self.marks(["digiKam:PickLabel": "3"])?.flag == .pick)
        #expect(try Self.marks(["digiKam:PickLabel": "7"])?.flag == PickFlag.none)
    }

    @Test func photoMechanicsTagIsAPick() throws {
        #expect(try Self.marks(["photomechanic:Tagged": "True"])?.flag == .pick)
        #expect(try Self.marks(["photomechanic:Tagged": "False"])?.flag == PickFlag.none)
    }

    @Test func whenToolsDisagreeRejectWins() throws {
        #expect(try Self.marks(["xmp:Rating": "-1", "digiKam:PickLabel": "3"])?.flag == .reject)
        #expect(try Self.marks(["digiKam:PickLabel": "1", "photomechanic:Tagged": "True"])?.flag == .reject)
    }

    @Test(arguments: [("Red", ColorLabel.red), ("yellow", .yellow), ("GREEN", .green), (" Blue ", .blue), ("Purple", .purple)])
    func xmpLabelNames(text: String, label: ColorLabel) throws {
        #expect(try Self.marks(["xmp:Label": text])?.label == label)
    }

    @Test func darktablesLowestLabelWhenXmpLabelNamesNoColour() throws {
        #expect(try Self.marks([:], darktableLabels: [3, 1])?.label == .yellow)
        #expect(try Self.marks(["xmp:Label": "To Print"], darktableLabels: [4])?.label == .purple)
        #expect(try Self.marks(["xmp:Label": "Green"], darktableLabels: [0])?.label == .green)
        #expect(try Self.marks([:], darktableLabels: [9])?.label == nil)
    }

    @Test func digiKamsColourLabelLast() throws {
        #expect(try Self.marks(["digiKam:ColorLabel": "6"])?.label == .purple)  // magenta
        #expect(try Self.marks(["digiKam:ColorLabel": "2"])?.label == nil)  // orange: no shared colour
        #expect(try Self.marks(["digiKam:ColorLabel": "0"])?.label == nil)
        #expect(try Self.marks(["digiKam:ColorLabel": "1"], darktableLabels: [2])?.label == .green)
    }

    @Test func theLastModifiedSidecarThatSaysSomethingWins() {
        let older = MarksSource(.fileSidecar, modified: 100, marks: PhotoMarks(rating: 2))
        let newer = MarksSource(.shotSidecar, modified: 200, marks: PhotoMarks(flag: .reject))
        let silent = MarksSource(.fileSidecar, modified: 300, marks: nil)
        let embedded = MarksSource(.embedded, modified: 400, marks: PhotoMarks(label: .red))
        #expect(MarksSource.resolve([older, newer, silent, embedded]) == PhotoMarks(flag: .reject))
        // Equal times: the file's own sidecar.
        let same = MarksSource(.shotSidecar, modified: 100, marks: PhotoMarks(rating: 5))
        #expect(MarksSource.resolve([same, older]) == PhotoMarks(rating: 2))
        // No sidecar says anything: the embedded packet; nothing at all: unmarked.
        #expect(MarksSource.resolve([silent, embedded]) == PhotoMarks(label: .red))
        #expect(MarksSource.resolve([silent]) == .unmarked)
    }
}
