// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorWeb
import Testing

@Suite struct RandomTokenTests {
    @Test func aTokenIs256BitsWrittenAs64HexDigitsAndReadBack() throws {
        let token = try RandomToken.generate()
        #expect(token.bytes.count == 32)
        #expect(token.hex.count == 64)
        let read = try #require(RandomToken(hex: token.hex))
        #expect(read.matches(token))
        #expect(RandomToken(hex: token.hex.uppercased())?.matches(token) == true)
    }

    @Test func twoTokensDiffer() throws {
        #expect(!(try RandomToken.generate()).matches(try RandomToken.generate()))
    }

    @Test func anythingButExactly64HexDigitsIsNoToken() throws {
        let hex = try RandomToken.generate().hex
        #expect(RandomToken(hex: String(hex.dropLast())) == nil)
        #expect(RandomToken(hex: hex + "0") == nil)
        #expect(RandomToken(hex: String(hex.dropLast()) + "g") == nil)
        #expect(RandomToken(hex: "") == nil)
    }

    @Test func aTokenDifferingInItsLastByteDoesNotMatch() throws {
        let token = try RandomToken.generate()
        var hex = Array(token.hex)
        hex[63] = hex[63] == "0" ? "1" : "0"
        #expect(RandomToken(hex: String(hex))?.matches(token) == false)
    }
}

@Suite struct LoginGateTests {
    @Test func theSecretGivesOneSessionAndIsThenSpent() throws {
        let secret = try RandomToken.generate()
        let gate = LoginGate(secret: secret)
        #expect(try gate.redeem(nil) == nil)
        #expect(try gate.redeem(try RandomToken.generate().hex) == nil)
        let session = try #require(try gate.redeem(secret.hex))
        #expect(gate.isSignedIn(session.hex))
        #expect(!session.matches(secret))
        #expect(try gate.redeem(secret.hex) == nil)
        #expect(!gate.isSignedIn(secret.hex))
        #expect(!gate.isSignedIn(nil))
        #expect(!gate.isSignedIn("x"))
    }
}
