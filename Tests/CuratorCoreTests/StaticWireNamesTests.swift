// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorXMP
import Testing

/// The listing writes types and kinds from static bytes; each must be the wire name
/// the encoder writes for it, and must need no escaping.
@Suite struct StaticWireNamesTests {
    @Test func everyTypeAndKindIsItsWireName() {
        for type in PhotoType.allCases {
            #expect(type.staticWireName.description == type.wireName, "\(type)")
        }
        for kind in MemberKind.allCases {
            #expect(kind.staticWireName.description == kind.rawValue, "\(kind)")
        }
        for flag in PickFlag.allCases { #expect(flag.staticWireName.description == flag.rawValue, "\(flag)") }
        for label in ColorLabel.allCases { #expect(label.staticWireName.description == label.rawValue, "\(label)") }
    }

    @Test func aPlainStringIsWrittenAsTheEncoderWritesIt() {
        var w = JSONWriter()
        w.beginArray()
        for type in PhotoType.allCases { w.string(plain: type.staticWireName) }
        w.endArray()
        var expected = JSONWriter()
        expected.beginArray()
        for type in PhotoType.allCases { expected.string(type.wireName) }
        expected.endArray()
        #expect(w.bytes == expected.bytes)
    }
}
