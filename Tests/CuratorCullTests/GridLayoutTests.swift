// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct GridLayoutTests {
    /// Two folders: 7 photos then 3, in 3 columns.
    let layout = GridLayout(runs: [FolderRun(root: "p", path: "a", start: 1, count: 7, total: 7),
                                   FolderRun(root: "p", path: "b", start: 8, count: 3, total: 3)], columns: 3)

    @Test func rowsAreHeadingsThenPhotoRowsPerFolder() {
        #expect(layout.rowCount == 1 + 3 + 1 + 1)
        #expect(layout.row(0) == .heading(run: 0))
        #expect(layout.row(1) == .photos(run: 0, first: 1, last: 3))
        #expect(layout.row(3) == .photos(run: 0, first: 7, last: 7))
        #expect(layout.row(4) == .heading(run: 1))
        #expect(layout.row(5) == .photos(run: 1, first: 8, last: 10))
        #expect(layout.row(6) == nil)
    }

    @Test func verticalMovesKeepTheColumnAndCrossFolders() {
        #expect(layout.vertical(from: 2, by: 1) == 5)
        #expect(layout.vertical(from: 6, by: 1) == 7)  // the last row has one photo
        #expect(layout.vertical(from: 7, by: 1) == 8)  // into the next folder, first column
        #expect(layout.vertical(from: 9, by: -1) == 7)
        #expect(layout.vertical(from: 2, by: -1) == nil)
        #expect(layout.vertical(from: 9, by: 1) == nil)
    }

    @Test func placeAndRunOfAPosition() {
        #expect(layout.place(of: 5)?.row == 2)
        #expect(layout.place(of: 5)?.column == 1)
        #expect(layout.runIndex(of: 8) == 1)
        #expect(layout.runIndex(of: 11) == nil)
    }
}

@Suite struct OrderedSelectionTests {
    @Test func deselectingRenumbersTheLaterOnes() {
        var selection = OrderedSelection()
        for id: Int64 in [40, 10, 30, 20] { selection.toggle(id) }
        #expect(selection.number(of: 30) == 3)
        selection.toggle(10)
        #expect(selection.number(of: 40) == 1)
        #expect(selection.number(of: 30) == 2)
        #expect(selection.number(of: 20) == 3)
        #expect(selection.number(of: 10) == nil)
        selection.toggle(10)
        #expect(selection.number(of: 10) == 4)
    }
}

@Suite struct KeyDecoderTests {
    @Test func arrowsPagingAndCharacters() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[A\u{1B}OBj \r\u{1B}[6~\u{03}".utf8)) == [.up, .down, .character("j"), .space, .enter, .pageDown, .control("c")])
    }

    @Test func aSequenceCutBetweenReadsIsKept() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, UInt8(ascii: "[")]) == [])
        #expect(decoder.isHolding)
        #expect(decoder.feed([UInt8(ascii: "5"), UInt8(ascii: "~")]) == [.pageUp])
    }

    @Test func aLoneEscapeIsEscapeOnceFlushed() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(decoder.feed(Array("é".utf8)) == [.character("é")])
    }
}

@Suite struct FilterTextTests {
    @Test func datesAndGlobs() {
        #expect(FilterText.parse("2024-05..2024-06")?.from == "2024-05")
        #expect(FilterText.parse("2024-05..2024-06")?.to == "2024-06")
        #expect(FilterText.parse("..2023")?.to == "2023")
        #expect(FilterText.parse("2024-05")?.from == "2024-05")
        #expect(FilterText.parse("2024-05")?.to == "2024-05")
        #expect(FilterText.parse("*.NEF")?.glob == "*.NEF")
        #expect(FilterText.parse("a..b")?.glob == "a..b")
        #expect(FilterText.parse("  ") == nil)
    }
}

@Suite struct ScreenWriterTests {
    @Test func onlyChangedRowsAreSentAgain() {
        var writer = ScreenWriter(trueColor: true)
        var screen = ScreenBuffer(width: 20, height: 3)
        screen.put(0, 0, "first")
        screen.put(0, 2, "third")
        _ = writer.frame(screen, kittyImages: false)
        screen.put(0, 2, "THIRD")
        let second = String(decoding: writer.frame(screen, kittyImages: false), as: UTF8.self)
        #expect(second.contains("THIRD"))
        #expect(!second.contains("first"))
        #expect(second.contains("\u{1B}[3;1H"))
    }

    @Test func nearestIndexedColours() {
        #expect(ScreenWriter.nearestIndexed(255, 0, 0) == 196)
        #expect(ScreenWriter.nearestIndexed(0, 0, 0) == 16)
    }

    @Test func sixelsAreListedInTheDeviceAttributes() {
        #expect(GraphicsMode.answerListsSixels(Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8)))
        #expect(!GraphicsMode.answerListsSixels(Array("\u{1B}[?1;2c".utf8)))
    }
}
