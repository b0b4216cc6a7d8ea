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
    /// Seconds east of UTC in force then (CEST: 7200).
    public var utcOffset: Int
    /// The zone's abbreviation then ("CEST", "EST"; "+0530" style where the zone has none).
    public var zoneAbbreviation: String

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
        utcOffset = Int(parts.tm_gmtoff)
        zoneAbbreviation = parts.tm_zone.map { String(cString: $0) } ?? ""
    }

    /// The date part.
    public var date: LocalDate { LocalDate(year: year, month: month, day: day) }

    /// Minutes after local midnight (0...1439).
    public var minuteOfDay: Int { hour * 60 + minute }

    /// The Unix time of `hour`:`minute` on the local date `dayOffset` days after this one's
    /// (`firstInstant`): a time that does not exist that night (02:30 when the clocks go forward
    /// at 02:00) is the moment the clocks jump (03:00 on the new clock, the first moment the clock
    /// reads 02:30 or later); a time that happens twice (when the clocks go back) is its first
    /// happening.
    public func unixSeconds(dayOffset: Int, hour: Int, minute: Int) -> Double {
        let date = self.date.adding(days: dayOffset)
        return LocalTime.firstInstant(
            year: date.year, month: date.month, day: date.day, minuteOfDay: hour * 60 + minute)
    }

    /// The first Unix instant at which the local wall clock (TZ, else /etc/localtime) reads
    /// `minuteOfDay` (minutes after midnight; 1440 is 00:00 the next day) on the given date, or
    /// later. So:
    /// - an ordinary time is its one instant;
    /// - a time that happens twice (02:30 on the night the clocks go back from 03:00 to 02:00) is
    ///   its first happening (02:30 on the summer clock);
    /// - a time that does not happen (02:30 on the night the clocks go forward from 02:00 to
    ///   03:00) is the instant of the jump (03:00 on the new clock: the first moment the clock
    ///   reads 02:30 or later).
    ///
    /// It is monotonic: a later wall time never gives an earlier instant. Found with localtime_r
    /// and mktime, without reading the zone's files: the candidates are the wall time less the
    /// offsets in force a day before and a day after and mktime's answers for summer and winter
    /// time, each kept only when localtime_r reads it back as that wall time; in a gap none is,
    /// and the jump is found by bisection between one before it and one after. (A zone that
    /// changes its offset twice within a day is read as changing once.) `day` may run past the
    /// month's end or below 1 (it counts on from the month's first day).
    public static func firstInstant(year: Int, month: Int, day: Int, minuteOfDay: Int) -> Double {
        let wall =
            LocalDate(year: year, month: month, day: 1).daysSinceEpoch * 86_400 + (day - 1) * 86_400
            + minuteOfDay * 60
        return Double(firstInstant(wallSeconds: wall))
    }

    /// `firstInstant(year:month:day:minuteOfDay:)` to the second: `secondOfDay` is 0...86400.
    public static func firstInstant(year: Int, month: Int, day: Int, secondOfDay: Int) -> Double {
        let wall =
            LocalDate(year: year, month: month, day: 1).daysSinceEpoch * 86_400 + (day - 1) * 86_400
            + secondOfDay
        return Double(firstInstant(wallSeconds: wall))
    }

    /// Whether the wall clock reads this time of day (`secondOfDay`) on that date twice (the
    /// clocks go back over it); `firstInstant` is the first.
    public static func happensTwice(year: Int, month: Int, day: Int, secondOfDay: Int) -> Bool {
        let wall =
            LocalDate(year: year, month: month, day: 1).daysSinceEpoch * 86_400 + (day - 1) * 86_400
            + secondOfDay
        let first = firstInstant(wallSeconds: wall)
        let later = wall - Int(localTime(unixSeconds: first + 86_400).tm_gmtoff)
        return later > first && wallSeconds(at: later) == wall
    }

    /// Whether the wall clock never reads this time of day on that date (the clocks skip it);
    /// `firstInstant` is then the jump.
    public static func isSkipped(year: Int, month: Int, day: Int, secondOfDay: Int) -> Bool {
        let wall =
            LocalDate(year: year, month: month, day: 1).daysSinceEpoch * 86_400 + (day - 1) * 86_400
            + secondOfDay
        return wallSeconds(at: firstInstant(wallSeconds: wall)) != wall
    }

    /// The wall clock's reading at `unix`, as seconds since 1970-01-01 00:00 on that clock.
    static func wallSeconds(at unix: Int) -> Int { unix + Int(localTime(unixSeconds: unix).tm_gmtoff) }

    static func firstInstant(wallSeconds wall: Int) -> Int {
        var candidates = [
            wall - Int(localTime(unixSeconds: wall - 86_400).tm_gmtoff),
            wall - Int(localTime(unixSeconds: wall + 86_400).tm_gmtoff),
        ]
        let date = LocalDate(daysSinceEpoch: Int((Double(wall) / 86_400).rounded(.down)))
        let second = wall - date.daysSinceEpoch * 86_400
        for isDaylight in Int32(0)...1 {
            var parts = tm()
            parts.tm_year = Int32(date.year - 1900)
            parts.tm_mon = Int32(date.month - 1)
            parts.tm_mday = Int32(date.day)
            parts.tm_hour = Int32(second / 3600)
            parts.tm_min = Int32(second / 60 % 60)
            parts.tm_sec = Int32(second % 60)
            parts.tm_isdst = isDaylight
            let time = systemMktime(&parts)
            if time != -1 { candidates.append(Int(time)) }
        }
        if let first = candidates.filter({ wallSeconds(at: $0) == wall }).min() { return first }
        // A gap: one candidate reads before `wall`, another after; the jump lies between them.
        let before = candidates.filter { wallSeconds(at: $0) < wall }
        let after = candidates.filter { wallSeconds(at: $0) > wall }
        guard var low = before.max(), var high = after.min(), low < high else {
            return candidates[0]
        }
        // wallSeconds(at: low) < wall <= wallSeconds(at: high): bisect to the first second
        // whose clock reads `wall` or later.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if wallSeconds(at: middle) >= wall { high = middle } else { low = middle }
        }
        return high
    }
}

/// A calendar date (proleptic Gregorian), with the day arithmetic a schedule needs; no time zone.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    /// 1...12.
    public var month: Int
    /// 1...31.
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// "YYYY-MM-DD" as a date that exists (2027-02-29 does not), or nil.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
        guard isValid else { return nil }
    }

    /// Whether the month has that day.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= LocalDate.daysIn(month: month, year: year)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// 0 is Sunday (as `LocalTime.weekday`).
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 4) % 7 }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

/// A time zone name that is not one of the system's (no such file under /usr/share/zoneinfo).
public struct TimeZoneError: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let reason: String

    public var description: String {
        "unknown time zone \"\(name)\" (\(reason)); see /usr/share/zoneinfo; timedatectl list-timezones"
    }
}

/// Nil when `name` is an IANA time zone this system has ("Europe/Berlin", "UTC",
/// "America/New_York"): no "..", no leading "/", and `$TZDIR/NAME` (else
/// /usr/share/zoneinfo/NAME) a readable regular file. Otherwise why not.
public func timeZoneProblem(_ name: String) -> TimeZoneError? {
    guard !name.isEmpty else { return TimeZoneError(name: name, reason: "an empty name") }
    guard !name.hasPrefix("/"), !name.contains(".."), !name.hasPrefix(":") else {
        return TimeZoneError(name: name, reason: "a zone's name such as Europe/Berlin, not a path")
    }
    let folder = processEnvironment()["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    let path = folder + "/" + name
    var info = stat()
    guard systemStat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, readError(path) == nil else {
        return TimeZoneError(name: name, reason: "no readable file \(path)")
    }
    return nil
}

/// Makes `name` the process's local time zone (TZ=name, tzset) after `timeZoneProblem` finds it
/// one of the system's; the local times of every thread follow it from then on.
public func useTimeZone(_ name: String) throws(TimeZoneError) {
    if let problem = timeZoneProblem(name) { throw problem }
    systemSetenv("TZ", name)
    systemTzset()
}

/// The broken-down local time (TZ, or /etc/localtime) at `unixSeconds` (localtime_r(3)), with
/// the zone's offset from UTC in `tm_gmtoff`: for strftime, and for `LocalTime`.
public func localTime(unixSeconds: Int) -> tm { systemLocaltime(unixSeconds) }
