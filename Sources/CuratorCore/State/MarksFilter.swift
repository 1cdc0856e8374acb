// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorXMP

/// A view's filter by marks (`rating_min`, `rating_max`, `flags`, `labels`),
/// checked. A photo nothing rates counts as 0 stars, as in Lightroom's filter.
struct MarksFilter: Sendable {
    var stars: ClosedRange<Int> = 0...5
    var flags: Set<PickFlag>?
    /// nil in the set: no label.
    var labels: Set<ColorLabel?>?

    /// nil when the filter says nothing of marks.
    init?(_ filter: ViewFilter) throws(ProtocolError) {
        guard filter.hasMarks else { return nil }
        for (value, name) in [(filter.ratingMin, "filter.rating_min"), (filter.ratingMax, "filter.rating_max")] {
            if let value, !(0...5).contains(value) {
                throw ProtocolError(.invalidArgument, "\(name) must be 0 to 5, not \(value).", argument: name)
            }
        }
        let low = filter.ratingMin ?? 0, high = filter.ratingMax ?? 5
        guard low <= high else {
            throw ProtocolError(.invalidArgument, "filter.rating_min (\(low)) is above filter.rating_max (\(high)).",
                                argument: "filter.rating_min")
        }
        stars = low...high
        if let names = filter.flags, !names.isEmpty {
            var set = Set<PickFlag>()
            for name in names {
                guard let flag = PickFlag(rawValue: name) else {
                    throw ProtocolError(.invalidArgument, "filter.flags: \"\(name)\" is not \"pick\", \"reject\" or \"none\".",
                                        argument: "filter.flags")
                }
                set.insert(flag)
            }
            flags = set
        }
        if let names = filter.labels, !names.isEmpty {
            var set = Set<ColorLabel?>()
            for name in names {
                if name == "none" {
                    set.insert(nil)
                    continue
                }
                guard let label = ColorLabel(rawValue: name) else {
                    let all = (ColorLabel.allCases.map(\.rawValue) + ["none"]).map { "\"\($0)\"" }.joined(separator: ", ")
                    throw ProtocolError(.invalidArgument, "filter.labels: \"\(name)\" is not one of \(all).", argument: "filter.labels")
                }
                set.insert(label)
            }
            labels = set
        }
    }

    func matches(_ marks: PhotoMarks) -> Bool {
        stars.contains(marks.rating ?? 0) && flags?.contains(marks.flag) != false && labels?.contains(marks.label) != false
    }
}
