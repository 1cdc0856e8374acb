// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// `YYYY-MM-DDTHH:MM:SS`, no zone, no fraction: the form of a capture time on the
/// wire and of `DeletionDate=` in a `.trashinfo`.
func dateTimeText(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> String {
    "\(zeroPadded(year, width: 4))-\(zeroPadded(month, width: 2))-\(zeroPadded(day, width: 2))"
        + "T\(zeroPadded(hour, width: 2)):\(zeroPadded(minute, width: 2)):\(zeroPadded(second, width: 2))"
}
