// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorXMP

extension PhotoSummary {
    /// `rating`, `flag` and `label` as listings write them: each absent when it says nothing.
    mutating func setMarks(_ marks: PhotoMarks) {
        rating = marks.rating
        flag = marks.flag == .none ? nil : marks.flag.rawValue
        label = marks.label?.rawValue
    }
}
