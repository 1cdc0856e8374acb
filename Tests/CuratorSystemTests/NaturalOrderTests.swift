// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Testing

/// Names as file managers order them (issue 48, 17).
struct NaturalOrderTests {
    @Test func numbersByValueLettersWithoutCaseBytesLast() {
        let names: [ByteString] = ["IMG_10.JPG", "img_0002.jpg", "IMG_2.JPG", "IMG_0003.JPG", "IMG_0002.JPG", "IMG_0001.JPG",
                                   "a", "B", "Beach", "a10", "a9", "a09"]
        let sorted = names.sorted { NaturalOrder.compare($0, $1) < 0 }
        // Equal but for case or leading zeros (all "2"): side by side, by their bytes.
        #expect(sorted.map(\.lossyString) == ["a", "a09", "a9", "a10", "B", "Beach", "IMG_0001.JPG", "IMG_0002.JPG",
                                              "IMG_2.JPG", "img_0002.jpg", "IMG_0003.JPG", "IMG_10.JPG"])
        // Total: only the same bytes compare equal.
        #expect(NaturalOrder.compare("IMG_0002.JPG", "img_0002.jpg") != 0)
        #expect(NaturalOrder.compare("x", "x") == 0)
        // A folder's path before a sibling with a longer name.
        #expect(NaturalOrder.compare("2024/05", "2024 beach") < 0)
        #expect(NaturalOrder.compare("2024/9", "2024/10") < 0)
        // Long runs of digits compare by length, then digits: no overflow.
        #expect(NaturalOrder.compare("p99999999999999999999999", "p100000000000000000000000") < 0)
    }
}
