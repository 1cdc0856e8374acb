// SPDX-License-Identifier: GPL-2.0-or-later

/// Sets found for one user (stacks, duplicate sets), with what they were found from.
protocol FoundSets {
    associatedtype Basis: Equatable
    var basis: Basis { get }
}

/// The sets last found for each user, given back while their basis holds: finding
/// them walks every listed photo, and listings, `select` and the set watch ask for
/// them again and again while nothing they depend on has changed. A few users at
/// most: each holds every group in a set.
struct KeptSets<Found: FoundSets> {
    private var byUser: [UInt32: Found] = [:]

    /// `uid`'s sets when found from `basis`; nil when not.
    func sets(uid: UInt32, basis: Found.Basis) -> Found? {
        guard let found = byUser[uid], found.basis == basis else { return nil }
        return found
    }

    mutating func keep(_ found: Found, uid: UInt32) {
        if byUser.count >= 8 && byUser[uid] == nil { byUser.removeAll() }
        byUser[uid] = found
    }
}
