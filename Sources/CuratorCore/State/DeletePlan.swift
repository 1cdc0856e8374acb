// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import FoundationEssentials
import Glibc

/// A delete plan shown to a client and waiting for its confirmation: the photos
/// in trashing order with their identities pinned, the session generation it was
/// made at (any change to the selection voids it), and when it expires.
struct DeletePlan {
    var token: String
    var key: SessionKey
    /// The session's selection generation when the plan was made; nil for a plan of
    /// explicit ids (a swipe), which no selection change concerns.
    var generation: UInt64?
    var expiresAt: UInt64
    var items: [BatchPlanItem]

    /// The roots its photos are in: the slots its batch takes.
    var roots: Set<String> { Set(items.map(\.rootName)) }

    static func makeToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
