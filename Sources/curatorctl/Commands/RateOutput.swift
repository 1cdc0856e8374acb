// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The flags' wire names.
enum PickFlagName {
    static let pick = "pick"
    static let reject = "reject"
}

/// What rate, pick and reject send and print: one line per photo, its marks
/// after and before.
enum RateOutput {
    static func send(_ request: RateRequest, _ context: CLIContext) throws(CLIError) {
        guard let result = try context.call(request) else { return }
        for photo in result.photos {
            let wrote = photo.sidecars.isEmpty ? "already so" : "wrote " + photo.sidecars.joined(separator: ", ")
            Format.write("\(photo.id): \(describe(photo.marks)) (was \(describe(photo.previous))); \(wrote)")
        }
    }

    static func describe(_ marks: PhotoMarksValue) -> String {
        let stars = marks.rating.map { Format.plural($0, "star") } ?? "no stars"
        let flag = switch marks.flag {
        case PickFlagName.pick: "picked"
        case PickFlagName.reject: "rejected"
        default: "no flag"
        }
        return "\(stars), \(flag), \(marks.label ?? "no label")"
    }

    /// A listing line's marks, short: `★★★ rejected red`; "" for none.
    static func brief(rating: Int?, flag: String?, label: String?) -> String {
        let words = [rating.map { $0 == 0 ? "0★" : String(repeating: "★", count: $0) },
                     flag.map { $0 == PickFlagName.pick ? "picked" : $0 == PickFlagName.reject ? "rejected" : $0 },
                     label]
        return words.compactMap { $0 }.joined(separator: " ")
    }
}
