// SPDX-License-Identifier: GPL-2.0-or-later

/// A photo's stars, flag and colour label, as docs/XMP.md says to read them from
/// whichever properties the tools that marked it wrote.
public struct PhotoMarks: Hashable, Sendable {
    /// 0 to 5; nil when nothing says.
    public var rating: Int?
    public var flag: PickFlag
    public var label: ColorLabel?

    public init(rating: Int? = nil, flag: PickFlag = .none, label: ColorLabel? = nil) {
        precondition(rating.map { (0...5).contains($0) } ?? true, "a rating is 0 to 5")
        self.rating = rating
        self.flag = flag
        self.label = label
    }

    /// No stars, no flag, no label.
    public static let unmarked = PhotoMarks()

    /// The marks a packet states, by the order of docs/XMP.md; nil when it has none
    /// of the properties read (so that the next source is asked).
    public init?(_ packet: XMPPacket) {
        guard MarksProperties.all.contains(where: packet.has) else { return nil }
        let ratingValue = XMPValue.number(packet.text(MarksProperties.rating))
        let pickLabel = XMPValue.integer(packet.text(MarksProperties.pickLabel), in: 0...3)

        if ratingValue == -1 || pickLabel == MarksProperties.pickLabelRejected {
            flag = .reject
        } else if pickLabel == MarksProperties.pickLabelAccepted || XMPValue.boolean(packet.text(MarksProperties.tagged)) == true {
            flag = .pick
        } else {
            flag = .none
        }

        if let ratingValue, (0...5).contains(ratingValue) {
            rating = Int(ratingValue.rounded())
        } else if let percent = XMPValue.integer(packet.text(MarksProperties.ratingPercent), in: 0...100) {
            rating = MarksProperties.stars(percent: percent)
        } else {
            rating = nil
        }

        label = packet.text(MarksProperties.label).flatMap(ColorLabel.init(xmpLabel:))
            ?? packet.items(MarksProperties.darktableColors)?
                .compactMap { XMPValue.integer($0, in: 0...4).flatMap(ColorLabel.init(darktableIndex:)) }
                .min { $0.darktableIndex < $1.darktableIndex }
            ?? XMPValue.integer(packet.text(MarksProperties.digiKamColor), in: 0...9).flatMap(ColorLabel.init(digiKamCode:))
    }
}
