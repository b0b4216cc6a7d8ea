#if canImport(Glibc)
    import Glibc
#endif

/// A wall-clock moment in the process's local time zone (TZ, else /etc/localtime), as a kiosk's
/// owner reads it: screen-off hours and schedules are said in it.
public struct LocalTime: Sendable, Equatable {
    public var year: Int
    /// 1...12.
    public var month: Int
    /// 1...31.
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 0 is Sunday.
    public var weekday: Int

    /// The local time at Unix time `unixSeconds` (localtime_r).
    public init(unixSeconds: Double) {
        let parts = localTime(unixSeconds: Int(unixSeconds.rounded(.down)))
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        weekday = Int(parts.tm_wday)
    }

    /// The Unix time of `hour`:`minute` on the local date `dayOffset` days after this one's
    /// (mktime, which also carries a day past the month's end). A time that does not exist that
    /// night (02:30 when the clocks go forward at 02:00) is the moment it would have been, an
    /// hour later on the new clock (03:30); a time that happens twice (when the clocks go back)
    /// is its first happening.
    public func unixSeconds(dayOffset: Int, hour: Int, minute: Int) -> Double {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day + dayOffset)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        // Unknown: mktime decides from the zone's rules, as a person reading a clock does.
        parts.tm_isdst = -1
        return Double(systemMktime(&parts))
    }
}

/// The broken-down local time (TZ, or /etc/localtime) at `unixSeconds` (localtime_r(3)), with
/// the zone's offset from UTC in `tm_gmtoff`: for strftime, and for `LocalTime`.
public func localTime(unixSeconds: Int) -> tm { systemLocaltime(unixSeconds) }
