// SPDX-License-Identifier: GPL-2.0-or-later

/// The properties docs/XMP.md names, once.
enum MarksProperties {
    static let rating = XMPProperty(.xmp, "Rating")
    static let label = XMPProperty(.xmp, "Label")
    static let pickLabel = XMPProperty(.digiKam, "PickLabel")
    static let digiKamColor = XMPProperty(.digiKam, "ColorLabel")
    static let darktableColors = XMPProperty(.darktable, "colorlabels")
    static let ratingPercent = XMPProperty(.microsoftPhoto, "Rating")
    static let tagged = XMPProperty(.photoMechanic, "Tagged")

    /// Whichever of these a packet has, it says something about the marks.
    static let all = [rating, label, pickLabel, digiKamColor, darktableColors, ratingPercent, tagged]

    /// digiKam's `PickLabel`: 0 none, 1 rejected, 2 pending, 3 accepted.
    static let pickLabelRejected = 1
    static let pickLabelAccepted = 3

    /// Windows' percentages for 0-5 stars, as Windows and digiKam write them.
    static let percentForStars = [0, 1, 25, 50, 75, 99]

    /// Stars from a percentage, read as Windows Explorer does.
    static func stars(percent: Int) -> Int {
        switch percent {
        case ...0: 0
        case 1...12: 1
        case 13...37: 2
        case 38...62: 3
        case 63...87: 4
        default: 5
        }
    }
}
