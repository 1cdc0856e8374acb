// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import Foundation
import Testing

/// `rate`: a part left out is unchanged, `null` clears it; the marks of an answer
/// say `null` rather than leave a key out, so that a client can send them back.
struct RateRequestTests {
    static func rate(_ line: String) throws -> RateRequest {
        guard case .success(let request) = Wire.decodeRequest(Data(line.utf8), known: CommandTable.known),
              let rate = request.command as? RateRequest else {
            throw CancellationError()
        }
        return rate
    }

    @Test func absentNullAndValueAreThreeThings() throws {
        let absent = try Self.rate(#"{"id":1,"cmd":"rate","ids":[4],"flag":"pick"}"#)
        #expect(absent.rating == .unchanged && absent.label == .unchanged && absent.flag == "pick" && absent.ids == [4])
        let cleared = try Self.rate(#"{"id":1,"cmd":"rate","rating":null,"label":null}"#)
        #expect(cleared.rating == .cleared && cleared.label == .cleared && cleared.ids == nil)
        let set = try Self.rate(#"{"id":1,"cmd":"rate","rating":-1,"label":"red","session":"s"}"#)
        #expect(set.rating == .value(-1) && set.label == .value("red") && set.session == "s")
    }

    @Test func aRatingIsAnIntegerAsWritten() {
        guard case .failure(let failure) = Wire.decodeRequest(Data(#"{"id":1,"cmd":"rate","rating":2.5}"#.utf8), known: CommandTable.known) else {
            Issue.record("2.5 was taken for a rating")
            return
        }
        #expect(failure.error.code == .invalidArgument && failure.error.argument == "rating")
    }

    @Test func theRequestEncodesAsItDecodes() throws {
        let request = RateRequest(ids: [7], rating: .cleared, flag: "reject", label: .value("blue"))
        let text = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        #expect(text.contains(#""rating":null"#) && text.contains(#""label":"blue""#) && !text.contains("session"))
    }

    @Test func marksSayNull() throws {
        let text = String(decoding: try JSONEncoder().encode(PhotoMarksValue(rating: nil, flag: "none", label: nil)), as: UTF8.self)
        #expect(text.contains(#""rating":null"#) && text.contains(#""label":null"#))
    }
}
