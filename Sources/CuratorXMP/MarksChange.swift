// SPDX-License-Identifier: GPL-2.0-or-later

/// What a `rate` asks to change; a nil part is left as it is. Applied to a packet
/// by the table of docs/XMP.md, "What curatord writes".
public struct MarksChange: Hashable, Sendable {
    public enum Setting<Value: Hashable & Sendable>: Hashable, Sendable {
        case set(Value)
        case cleared
    }

    /// Stars 0 to 5, or none.
    public var rating: Setting<Int>?
    public var flag: PickFlag?
    public var label: Setting<ColorLabel>?

    public init(rating: Setting<Int>? = nil, flag: PickFlag? = nil, label: Setting<ColorLabel>? = nil) {
        if case .set(let stars)? = rating { precondition((0...5).contains(stars), "a rating is 0 to 5") }
        self.rating = rating
        self.flag = flag
        self.label = label
    }

    /// Changes our properties in `packet` and nothing else; false when the packet
    /// already said all of it (nothing to write).
    @discardableResult
    public func apply(to packet: XMPPacket) throws(XMPError) -> Bool {
        let current = PhotoMarks(packet) ?? .unmarked
        var edit = PacketEdit(packet: packet)
        if rating != nil || flag != nil { try applyStarsAndFlag(current, &edit) }
        if let label { try applyLabel(label, &edit) }
        return edit.changed
    }

    private func applyStarsAndFlag(_ current: PhotoMarks, _ edit: inout PacketEdit) throws(XMPError) {
        // Stars and a reject share xmp:Rating: stars given to a rejected photo
        // un-reject it, as darktable does, unless this change rejects it.
        let newFlag: PickFlag
        if let flag {
            newFlag = flag
        } else if case .set? = rating, current.flag == .reject {
            newFlag = .none
        } else {
            newFlag = current.flag
        }
        let stars: Int?
        switch rating {
        case .set(let value)?: stars = value
        case .cleared?: stars = nil
        case nil: stars = current.rating
        }

        let ratingText = newFlag == .reject ? "-1" : stars.map(String.init)
        let ratingIsReject = XMPValue.number(edit.packet.text(MarksProperties.rating)) == -1
        if rating != nil || newFlag == .reject || ratingIsReject {
            try edit.update(MarksProperties.rating, to: ratingText)
        }
        if let rating, edit.packet.has(MarksProperties.ratingPercent) {
            switch rating {
            case .set(let value): try edit.update(MarksProperties.ratingPercent, to: String(MarksProperties.percentForStars[value]))
            case .cleared: try edit.update(MarksProperties.ratingPercent, to: nil)
            }
        }
        if newFlag != current.flag || flag != nil {
            let code = switch newFlag {
            case .none: 0
            case .reject: MarksProperties.pickLabelRejected
            case .pick: MarksProperties.pickLabelAccepted
            }
            if newFlag != .none || edit.packet.has(MarksProperties.pickLabel) {
                try edit.update(MarksProperties.pickLabel, to: String(code))
            }
            if edit.packet.has(MarksProperties.tagged) {
                try edit.update(MarksProperties.tagged, to: newFlag == .pick ? "True" : "False")
            }
        }
    }

    private func applyLabel(_ label: Setting<ColorLabel>, _ edit: inout PacketEdit) throws(XMPError) {
        switch label {
        case .set(let colour):
            try edit.update(MarksProperties.label, to: colour.xmpLabel)
            if edit.packet.has(MarksProperties.darktableColors) {
                try edit.update(items: MarksProperties.darktableColors, to: [String(colour.darktableIndex)])
            }
            if edit.packet.has(MarksProperties.digiKamColor) {
                try edit.update(MarksProperties.digiKamColor, to: String(colour.digiKamCode))
            }
        case .cleared:
            try edit.update(MarksProperties.label, to: nil)
            try edit.update(items: MarksProperties.darktableColors, to: nil)
            if edit.packet.has(MarksProperties.digiKamColor) { try edit.update(MarksProperties.digiKamColor, to: "0") }
        }
    }
}

/// Sets properties of a packet and remembers whether any value really changed.
private struct PacketEdit {
    let packet: XMPPacket
    var changed = false

    /// Sets a simple property (nil: removes it) unless it already holds `value`.
    mutating func update(_ property: XMPProperty, to value: String?) throws(XMPError) {
        guard packet.text(property) != value || (value == nil && packet.has(property)) else { return }
        if let value { try packet.set(property, value) } else { try packet.remove(property) }
        changed = true
    }

    /// Makes an array hold exactly `values` (nil: removes it) unless it already does.
    mutating func update(items property: XMPProperty, to values: [String]?) throws(XMPError) {
        guard packet.items(property) != values || (values == nil && packet.has(property)) else { return }
        if let values { try packet.setItems(property, values) } else { try packet.remove(property) }
        changed = true
    }
}
