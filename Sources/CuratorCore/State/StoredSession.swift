// SPDX-License-Identifier: GPL-2.0-or-later

/// A session as `index.sqlite` keeps it: the state's own JSON object, with `used`
/// (the session's place in the order of use) beside its keys. Rows written before
/// `used` existed read as used first of all.
struct StoredSession: Codable {
    var state: SessionState
    var used: Int64

    init(state: SessionState, used: Int64) {
        self.state = state
        self.used = used
    }

    private enum CodingKeys: String, CodingKey { case used }

    init(from decoder: any Decoder) throws {
        state = try SessionState(from: decoder)
        used = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int64.self, forKey: .used) ?? 0
    }

    func encode(to encoder: any Encoder) throws {
        try state.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(used, forKey: .used)
    }
}
