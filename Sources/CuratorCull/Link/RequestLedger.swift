// SPDX-License-Identifier: GPL-2.0-or-later

/// The session requests sent and not answered yet (keys typed meanwhile wait, so that
/// keys typed ahead mean what they would typed slowly), and an error raised inside a
/// reply, carried out of the link's dispatch to the loop, which ends on it.
struct RequestLedger {
    private(set) var busy = 0
    private var carried: CullError?

    var isIdle: Bool { busy == 0 }

    mutating func sent() { busy += 1 }

    mutating func answered() { busy = max(0, busy - 1) }

    mutating func carry(_ error: CullError) { carried = error }

    /// Throws the error a reply raised, if one did.
    func check() throws(CullError) {
        if let carried { throw carried }
    }
}
