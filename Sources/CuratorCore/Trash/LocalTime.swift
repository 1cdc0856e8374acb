// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// A wall-clock time in the local zone, as the trash spec's `DeletionDate` wants it.
public struct LocalTime: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Seconds east of UTC in force at that instant.
    public var utcOffsetSeconds: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffsetSeconds: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public init(epochSeconds: Int64) {
        var t = time_t(epochSeconds)
        var parts = tm()
        localtime_r(&t, &parts)
        self.init(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                  hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
                  utcOffsetSeconds: Int(parts.tm_gmtoff))
    }

    public static func now() -> LocalTime {
        LocalTime(epochSeconds: Int64(time(nil)))
    }

    /// `YYYY-MM-DDTHH:MM:SS`, no zone, no fraction.
    public var trashInfoText: String {
        dateTimeText(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// RFC 3339 with the zone offset, for history listings.
    public var rfc3339Text: String {
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let offset = abs(utcOffsetSeconds) / 60
        return trashInfoText + sign + zeroPadded(offset / 60, width: 2) + ":" + zeroPadded(offset % 60, width: 2)
    }
}
