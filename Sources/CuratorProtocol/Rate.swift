// SPDX-License-Identifier: GPL-2.0-or-later

/// `rate`: stars, a pick or reject flag and a colour label, written into the
/// photos' XMP sidecars (docs/XMP.md). A part left out is left as it is; `null`
/// clears it.
public struct RateRequest: ProtocolRequest {
    public static let name = "rate"
    public typealias Result = RateResult
    /// A part of the request: absent (unchanged), null (cleared) or a value.
    public enum Part<Value: Codable & Sendable & Equatable>: Sendable, Equatable {
        case unchanged
        case cleared
        case value(Value)
    }

    public var session: String?
    /// These photos (ids as listings give them) instead of the session's selection.
    public var ids: [Int64]?
    /// Or these positions in the session's view, as `select` takes them ("3 5 9-12").
    public var positions: String?
    /// -1 (rejected) to 5 stars.
    public var rating: Part<Int>
    /// `pick`, `reject` or `none`.
    public var flag: String?
    /// `red`, `yellow`, `green`, `blue` or `purple`.
    public var label: Part<String>

    public init(session: String? = nil, ids: [Int64]? = nil, rating: Part<Int> = .unchanged, flag: String? = nil,
                label: Part<String> = .unchanged) {
        self.session = session
        self.ids = ids
        self.rating = rating
        self.flag = flag
        self.label = label
    }

    enum CodingKeys: String, CodingKey { case session, ids, positions, rating, flag, label }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let literals = NumberLiterals.of(decoder.userInfo)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        ids = try container.integers(Int64.self, forKey: .ids, literals: literals)
        positions = try container.decodeIfPresent(String.self, forKey: .positions)
        flag = try container.decodeIfPresent(String.self, forKey: .flag)
        if !container.contains(.rating) {
            rating = .unchanged
        } else if try container.decodeNil(forKey: .rating) {
            rating = .cleared
        } else {
            rating = .value(try container.integer(Int.self, forKey: .rating, literals: literals))
        }
        if !container.contains(.label) {
            label = .unchanged
        } else if try container.decodeNil(forKey: .label) {
            label = .cleared
        } else {
            label = .value(try container.decode(String.self, forKey: .label))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(session, forKey: .session)
        try container.encodeIfPresent(ids, forKey: .ids)
        try container.encodeIfPresent(positions, forKey: .positions)
        try container.encodeIfPresent(flag, forKey: .flag)
        switch rating {
        case .unchanged: break
        case .cleared: try container.encodeNil(forKey: .rating)
        case .value(let stars): try container.encode(stars, forKey: .rating)
        }
        switch label {
        case .unchanged: break
        case .cleared: try container.encodeNil(forKey: .label)
        case .value(let colour): try container.encode(colour, forKey: .label)
        }
    }
}

/// A photo's marks on the wire; `rating` and `label` are `null` when there are none.
public struct PhotoMarksValue: Codable, Sendable, Equatable {
    public var rating: Int?
    public var flag: String
    public var label: String?

    public init(rating: Int?, flag: String, label: String?) {
        self.rating = rating
        self.flag = flag
        self.label = label
    }

    enum CodingKeys: String, CodingKey { case rating, flag, label }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rating, forKey: .rating)
        try container.encode(flag, forKey: .flag)
        try container.encode(label, forKey: .label)
    }
}

public struct RateResult: Codable, Sendable {
    public struct Rated: Codable, Sendable {
        public var id: Int64
        /// Before: what a client sends back to undo.
        public var previous: PhotoMarksValue
        public var marks: PhotoMarksValue
        /// The sidecars written or created, by name in the photo's folder; empty when
        /// they already said it all.
        public var sidecars: [String]
        /// The image files whose embedded XMP was written (a root's
        /// `xmp_write_embedded`), by name; absent when none was.
        public var images: [String]?

        public init(id: Int64, previous: PhotoMarksValue, marks: PhotoMarksValue, sidecars: [String], images: [String]? = nil) {
            self.id = id
            self.previous = previous
            self.marks = marks
            self.sidecars = sidecars
            self.images = images
        }
    }

    public var photos: [Rated]

    public init(photos: [Rated]) { self.photos = photos }
}
