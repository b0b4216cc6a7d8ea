import Foundation
import SwellPlayer
import SwellSystem
import Testing

/// Local time's first instants on the nights the clocks change, in three zones.
@Suite struct FirstInstantTests {
    static func first(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Double {
        LocalTime.firstInstant(year: year, month: month, day: day, minuteOfDay: hour * 60 + minute)
    }

    @Test func berlinsGapAndFold() {
        OffHoursTests.inZone("Europe/Berlin") {
            // 2027-03-28 02:00 CET jumps to 03:00 CEST at 01:00Z: 02:30 is first reached at the jump.
            #expect(Self.first(2027, 3, 28, 2, 30) == 1_806_195_600)
            #expect(Self.first(2027, 3, 28, 2, 0) == 1_806_195_600)
            #expect(Self.first(2027, 3, 28, 3, 0) == 1_806_195_600, "03:00 CEST is the jump itself")
            #expect(Self.first(2027, 3, 28, 3, 30) == 1_806_195_600 + 1800)
            #expect(Self.first(2027, 3, 28, 1, 59) == 1_806_195_600 - 60, "a minute before the jump, CET")
            // 2026-10-25 03:00 CEST goes back to 02:00 CET at 01:00Z: 02:30 first at 00:30Z.
            #expect(Self.first(2026, 10, 25, 2, 30) == 1_792_888_200)
            #expect(Self.first(2026, 10, 25, 3, 30) == 1_792_895_400)
            // 24:00 is the next day's midnight: 2027-01-01 00:00 CET.
            #expect(Self.first(2026, 12, 31, 24, 0) == 1_798_758_000)
            #expect(Self.first(2027, 1, 1, 0, 0) == 1_798_758_000)
        }
    }

    @Test func newYorkAndSydney() {
        OffHoursTests.inZone("America/New_York") {
            // 2027-03-14 02:00 EST jumps to 03:00 EDT at 07:00Z.
            #expect(Self.first(2027, 3, 14, 2, 30) == 1_805_007_600)
            // 2026-11-01 02:00 EDT goes back to 01:00 EST at 06:00Z: 01:30 first at 05:30Z (EDT).
            #expect(Self.first(2026, 11, 1, 1, 30) == 1_793_511_000)
        }
        OffHoursTests.inZone("Australia/Sydney") {
            // Southern spring: 2026-10-04 02:00 AEST jumps to 03:00 AEDT at 16:00Z the day before.
            #expect(Self.first(2026, 10, 4, 2, 30) == 1_791_043_200)
            // 2027-04-04 03:00 AEDT goes back to 02:00 AEST at 16:00Z: 02:30 first at 15:30Z.
            #expect(Self.first(2027, 4, 4, 2, 30) == 1_806_766_200)
        }
    }

    @Test func aLaterWallTimeIsNeverAnEarlierInstant() {
        OffHoursTests.inZone("Europe/Berlin") {
            for night in [(2027, 3, 28), (2026, 10, 25)] {
                var previous = -Double.infinity
                for minute in stride(from: 0, through: 1440, by: 5) {
                    let instant = LocalTime.firstInstant(
                        year: night.0, month: night.1, day: night.2, minuteOfDay: minute)
                    #expect(instant >= previous, "\(night) minute \(minute)")
                    previous = instant
                    // An ordinary minute reads back as itself.
                    let back = LocalTime(unixSeconds: instant)
                    if !(120..<180).contains(minute) { #expect(back.minuteOfDay == minute % 1440) }
                }
            }
        }
    }

    @Test func datesAndZones() {
        #expect(LocalDate(parsing: "2027-02-30") == nil)
        #expect(LocalDate(parsing: "2028-02-29") == LocalDate(year: 2028, month: 2, day: 29))
        #expect(LocalDate(parsing: "2027-2-28") == nil)
        #expect(LocalDate(year: 2026, month: 12, day: 7).weekday == 1, "a Monday")
        #expect(LocalDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(LocalDate(year: 2026, month: 12, day: 31).adding(days: 1) == LocalDate(year: 2027, month: 1, day: 1))
        #expect(LocalDate(year: 2028, month: 3, day: 1).adding(days: -1) == LocalDate(year: 2028, month: 2, day: 29))
        #expect(timeZoneProblem("Europe/Berlin") == nil)
        #expect(timeZoneProblem("UTC") == nil)
        #expect(timeZoneProblem("Mars/Olympus")?.description.contains("timedatectl list-timezones") == true)
        #expect(timeZoneProblem("../../etc/passwd") != nil)
        #expect(timeZoneProblem("/etc/localtime") != nil)
        #expect(timeZoneProblem("Europe") != nil, "a folder is not a zone")
    }
}

/// Schedules: parsed with every problem, and decided at a time with precedence, windows over
/// midnight and the week's wrap, and nights the clocks change.
@Suite struct ScheduleTests {
    static func parse(_ text: String, outputs: [String]? = nil) throws(KioskFileError) -> Schedule {
        try parseScheduleFile(bytes: Array(text.utf8), name: "/etc/swell/schedule.json", outputs: outputs)
    }

    static func problems(_ text: String, outputs: [String]? = nil) -> [String] {
        do {
            _ = try parse(text, outputs: outputs)
            return []
        } catch {
            return error.problems
        }
    }

    /// A schedule/1 file with these rules (JSON objects, comma-separated).
    static func file(_ rules: String, extra: String = "") -> String {
        #"{"format": "schedule/1", \#(extra) "rules": [\#(rules)]}"#
    }

    /// 2026-12-07 00:00 UTC, a Monday.
    static let monday = 1_796_601_600.0
    static let hour = 3600.0
    static let day = 86_400.0

    static let cafe = """
        {"format": "schedule/1", "timeZone": "Europe/Berlin", "default": "promotions.json",
         "rules": [
           {"name": "breakfast", "days": "weekdays", "from": "07:00", "to": "11:00", "content": "breakfast.json"},
           {"name": "lunch", "days": ["mon", "tue", "wed", "thu", "fri", "sat"], "from": "11:00", "to": "14:30",
            "content": "lunch.json", "outputs": ["HDMI-A-1"]},
           {"name": "summer terrace", "days": "daily", "startDate": "2027-06-01", "endDate": "2027-08-31",
            "from": "15:00", "to": "18:00", "content": "terrace.json"},
           {"name": "night", "days": "daily", "from": "22:00", "to": "06:30", "crossesMidnight": true, "content": "off"},
           {"name": "christmas eve", "dates": ["2026-12-24"], "from": "15:00", "to": "24:00",
            "content": "/srv/holiday.json", "priority": 1}
         ]}
        """

    @Test func theCafeScheduleParses() throws {
        let schedule = try Self.parse(Self.cafe, outputs: ["HDMI-A-1", "HDMI-A-2"])
        #expect(schedule.timeZone == "Europe/Berlin")
        #expect(schedule.defaultContent == .file("/etc/swell/promotions.json"))
        #expect(schedule.rules.map(\.name) == ["breakfast", "lunch", "summer terrace", "night", "christmas eve"])
        #expect(schedule.rules[0].days == .weekdays([1, 2, 3, 4, 5]))
        #expect(schedule.rules[0].from == 7 * 60 && schedule.rules[0].to == 11 * 60)
        #expect(schedule.rules[1].outputs == ["HDMI-A-1"])
        #expect(schedule.rules[1].days == .weekdays([1, 2, 3, 4, 5, 6]))
        #expect(schedule.rules[2].startDate == LocalDate(year: 2027, month: 6, day: 1))
        #expect(schedule.rules[2].endDate == LocalDate(year: 2027, month: 8, day: 31))
        #expect(schedule.rules[3].content == .off && schedule.rules[3].crossesMidnight)
        #expect(schedule.rules[4].days == .dates([LocalDate(year: 2026, month: 12, day: 24)]))
        #expect(schedule.rules[4].to == 1440 && schedule.rules[4].priority == 1)
        #expect(schedule.rules[4].content == .file("/srv/holiday.json"))
    }

    @Test func everyProblemIsFoundWithItsPath() {
        let problems = Self.problems(
            Self.file(
                """
                {"name": "a", "days": "daily", "from": "7:00", "content": "x.json"},
                {"name": "b", "days": ["mon", "fun"], "content": "x.json"},
                {"name": "c", "dates": ["2027-02-30"], "content": "x.json"},
                {"name": "d", "days": "daily", "startDate": "2027-06-02", "endDate": "2027-06-01", "content": "x.json"},
                {"name": "e", "days": "daily", "from": "01:00", "to": "02:00", "content": "x.json"},
                {"name": "e", "days": "daily", "from": "03:00", "to": "04:00", "content": "x.json"},
                {"name": "g", "days": "daily", "colour": "red", "from": "12:00", "to": "13:00", "content": "x.json"},
                {"name": "h", "days": "daily", "from": "22:00", "to": "06:30", "content": "off"},
                {"name": "i", "days": "daily", "from": "07:00", "to": "08:00", "crossesMidnight": true, "content": "off"},
                {"name": "j", "dates": ["2027-01-01"], "startDate": "2027-01-01", "content": "off"},
                {"name": "k", "days": "sometimes", "content": "off"},
                {"name": "l", "days": "daily", "to": "24:01", "content": "nowhere"},
                {"days": "daily", "content": "off"},
                {"name": "a", "days": "daily", "from": "05:00", "to": "06:00", "content": "off"},
                {"name": "m", "days": "daily", "from": "05:30", "to": "07:00", "content": "off"}
                """, extra: #""timeZone": "Mars/Olympus", "colour": 1,"#))
        let expected = [
            "$.colour: unknown member",
            "$.timeZone: unknown time zone \"Mars/Olympus\"",
            "$.rules[0].from: expected a local time HH:MM from 00:00 to 23:59, got \"7:00\"",
            "$.rules[1].days[1]: expected a day: mon, tue, wed, thu, fri, sat or sun, got \"fun\"",
            "$.rules[2].dates[0]: expected a date YYYY-MM-DD that exists",
            "$.rules[3].endDate: 2027-06-01 is before \"startDate\" 2027-06-02",
            "$.rules[5].name: \"e\" is already $.rules[4]'s name",
            "$.rules[6].colour: unknown member",
            "$.rules[7].to: \"to\" is not after \"from\" (22:00–06:30): a window that ends the next day says \"crossesMidnight\": true",
            "$.rules[8].crossesMidnight: the window 07:00–08:00 ends on the day it opens",
            "$.rules[9].startDate: \"startDate\" goes with \"days\"",
            "$.rules[10].days: expected \"daily\", \"weekdays\", \"weekend\"",
            "$.rules[11].to: expected a local time HH:MM from 00:00 to 24:00, got \"24:01\"",
            "$.rules[11].content: \"nowhere\" is neither a built-in scene",
            "$.rules[12]: missing required member \"name\"",
            "$.rules[13].name: \"a\" is already $.rules[0]'s name; give each rule its own name",
            // Overlaps are checked among the rules that read well, beside the other problems.
            "$.rules[14]: \"m\" and \"a\" ($.rules[13]) are both open every day 05:30–06:00",
        ]
        for line in expected {
            #expect(problems.contains { $0.hasPrefix(line) }, "\(line)\nnot among\n\(problems.joined(separator: "\n"))")
        }
        #expect(problems.count == expected.count, "\(problems.joined(separator: "\n"))")
    }

    @Test func daysOrDatesExactlyOnce() {
        #expect(
            Self.problems(Self.file(#"{"name": "a", "content": "off"}"#)).first?.hasPrefix(
                "$.rules[0]: missing required member \"days\" (or \"dates\")") == true)
        #expect(
            Self.problems(Self.file(#"{"name": "a", "days": "daily", "dates": ["2027-01-01"], "content": "off"}"#))
                .first?.hasPrefix("$.rules[0]: give \"days\" (every week) or \"dates\"") == true)
        #expect(Self.problems(#"{"format": "schedule/2", "rules": []}"#).first?.hasPrefix("$.format:") == true)
    }

    @Test func overlapsOfOneKindAndPriorityAreRefusedNamingBoth() {
        // Sunday night into Monday morning: the week wraps.
        let wrap = Self.problems(
            Self.file(
                """
                {"name": "late", "days": ["sun"], "from": "23:00", "to": "01:00", "crossesMidnight": true, "content": "off"},
                {"name": "early", "days": ["mon"], "from": "00:30", "to": "02:00", "content": "ripples"}
                """))
        #expect(
            wrap == [
                "$.rules[1]: \"early\" and \"late\" ($.rules[0]) are both open on Mondays 00:30–01:00 at the same "
                    + "priority 0 for the same output: give one a higher \"priority\" or move a window"
            ])
        // Saturday and Sunday nights run into Sunday and Monday mornings.
        let weekend = Self.problems(
            Self.file(
                """
                {"name": "weekend nights", "days": "weekend", "from": "22:00", "to": "02:00", "crossesMidnight": true,
                 "content": "off"},
                {"name": "weekday dawn", "days": "weekdays", "from": "01:00", "to": "03:00", "content": "ripples"}
                """))
        #expect(weekend.count == 1 && weekend[0].contains("on Mondays 01:00–02:00"), "\(weekend)")
        // Two one-off rules on one date.
        let dated = Self.problems(
            Self.file(
                """
                {"name": "eve", "dates": ["2026-12-24"], "from": "15:00", "to": "24:00", "content": "off"},
                {"name": "carols", "dates": ["2026-12-23", "2026-12-24"], "from": "18:00", "to": "19:00",
                 "content": "ripples"}
                """))
        #expect(dated.count == 1 && dated[0].contains("on 2026-12-24 18:00–19:00"), "\(dated)")
        // Date ranges that meet on one Tuesday only.
        let ranged = Self.problems(
            Self.file(
                """
                {"name": "summer", "days": "daily", "startDate": "2027-06-01", "from": "15:00", "to": "18:00",
                 "content": "off"},
                {"name": "spring", "days": ["tue"], "endDate": "2027-06-01", "from": "16:00", "to": "17:00",
                 "content": "ripples"}
                """))
        #expect(ranged.count == 1 && ranged[0].contains("on 2027-06-01 16:00–17:00"), "\(ranged)")
    }

    @Test func windowsThatNeverMeetAreAccepted() throws {
        let cases = [
            // Touching at 01:00 across the week's wrap.
            """
            {"name": "late", "days": ["sun"], "from": "23:00", "to": "01:00", "crossesMidnight": true, "content": "off"},
            {"name": "early", "days": ["mon"], "from": "01:00", "to": "02:00", "content": "ripples"}
            """,
            // Saturday's night reaches Sunday, not Monday, morning.
            """
            {"name": "sat night", "days": ["sat"], "from": "22:00", "to": "02:00", "crossesMidnight": true,
             "content": "off"},
            {"name": "monday dawn", "days": ["mon"], "from": "01:00", "to": "03:00", "content": "ripples"}
            """,
            // Date ranges apart; the Wednesday after a range ending on a Tuesday.
            """
            {"name": "summer", "days": "daily", "startDate": "2027-06-01", "from": "15:00", "to": "18:00",
             "content": "off"},
            {"name": "spring", "days": ["mon", "wed"], "endDate": "2027-06-01", "from": "16:00", "to": "17:00",
             "content": "ripples"}
            """,
            // Different outputs; a higher priority; a one-off over a weekly rule.
            """
            {"name": "a", "days": "daily", "content": "off", "outputs": ["HDMI-A-1"]},
            {"name": "b", "days": "daily", "content": "ripples", "outputs": ["HDMI-A-2"]},
            {"name": "c", "days": "daily", "from": "10:00", "to": "11:00", "content": "ripples", "priority": 1},
            {"name": "d", "dates": ["2027-01-01"], "content": "ripples"}
            """,
        ]
        for rules in cases {
            #expect(Self.problems(Self.file(rules), outputs: ["HDMI-A-1", "HDMI-A-2"]) == [], "\(rules)")
        }
    }

    @Test func theDayWindowsAndPrecedence() throws {
        let schedule = try Self.parse(
            Self.file(
                """
                {"name": "breakfast", "days": "weekdays", "from": "07:00", "to": "11:00", "content": "breakfast.json"},
                {"name": "night", "days": "daily", "from": "22:00", "to": "06:30", "crossesMidnight": true,
                 "content": "off"},
                {"name": "late breakfast", "days": ["mon"], "from": "10:00", "to": "12:00", "priority": 2,
                 "content": "brunch.json"},
                {"name": "closed", "dates": ["2026-12-08"], "from": "06:00", "to": "09:00", "content": "off"}
                """, extra: #""default": "promo.json","#))
        try OffHoursTests.inZone("UTC") {
            let (m, h) = (Self.monday, Self.hour)
            let breakfast = try #require(schedule.decision(for: nil, at: m + 8 * h))
            #expect(
                breakfast
                    == .init(
                        content: .file("/etc/swell/breakfast.json"), rule: "breakfast", since: m + 7 * h,
                        until: m + 10 * h))
            // The higher priority wins from 10:00; breakfast's end at 11:00 changes nothing shown.
            let brunch = try #require(schedule.decision(for: "HDMI-A-1", at: m + 10.5 * h))
            #expect(brunch.rule == "late breakfast" && brunch.since == m + 10 * h && brunch.until == m + 12 * h)
            let noon = try #require(schedule.decision(for: nil, at: m + 12 * h))
            #expect(
                noon == .init(content: .file("/etc/swell/promo.json"), rule: nil, since: m + 12 * h, until: m + 22 * h))
            let night = try #require(schedule.decision(for: nil, at: m + 23 * h))
            #expect(night == .init(content: .off, rule: "night", since: m + 22 * h, until: m + 24 * h + 6 * h))
            // Tuesday: the one-off rule beats the night (from 06:00) and breakfast (to 09:00).
            let closed = try #require(schedule.decision(for: nil, at: m + 24 * h + 8 * h))
            #expect(closed.rule == "closed" && closed.since == m + 30 * h && closed.until == m + 33 * h)
            let after = try #require(schedule.decision(for: nil, at: m + 33 * h))
            #expect(after.rule == "breakfast" && after.until == m + 35 * h)
        }
    }

    /// A Friday window over midnight belongs to Friday: it is open on Saturday morning, and no
    /// Thursday window is open on Friday morning.
    @Test func windowsOverMidnightBelongToTheirFirstDay() throws {
        let schedule = try Self.parse(
            Self.file(
                """
                {"name": "friday late", "days": ["fri"], "from": "23:00", "to": "02:00", "crossesMidnight": true,
                 "content": "ripples"},
                {"name": "sunday late", "days": ["sun"], "from": "23:00", "to": "01:00", "crossesMidnight": true,
                 "content": "off"}
                """))
        try OffHoursTests.inZone("UTC") {
            let (m, h, d) = (Self.monday, Self.hour, Self.day)
            #expect(schedule.decision(for: nil, at: m + 4 * d + 1 * h) == nil, "Friday 01:00: nothing")
            let saturday = try #require(schedule.decision(for: nil, at: m + 5 * d + 1 * h))
            #expect(saturday.rule == "friday late" && saturday.since == m + 4 * d + 23 * h)
            #expect(saturday.until == m + 5 * d + 2 * h)
            // Sunday 23:00 to Monday 01:00, over the week's end.
            let monday = try #require(schedule.decision(for: nil, at: m + 7 * d + 0.5 * h))
            #expect(monday.rule == "sunday late" && monday.since == m + 6 * d + 23 * h && monday.until == m + 7 * d + h)
            #expect(schedule.decision(for: nil, at: m + 7 * d + h) == nil)
        }
    }

    @Test func dateRangesAndTheLookBack() throws {
        let schedule = try Self.parse(
            Self.file(
                """
                {"name": "december", "days": "daily", "startDate": "2026-12-08", "endDate": "2026-12-09",
                 "content": "ripples"},
                {"name": "always", "days": "daily", "content": "off", "outputs": ["HDMI-A-2"], "priority": 1}
                """), outputs: ["HDMI-A-1", "HDMI-A-2"])
        try OffHoursTests.inZone("UTC") {
            let (m, d) = (Self.monday, Self.day)
            #expect(schedule.decision(for: "HDMI-A-1", at: m + 0.5 * d) == nil, "before the range")
            let inside = try #require(schedule.decision(for: "HDMI-A-1", at: m + 1.5 * d))
            // Two whole days in a row are one decision.
            #expect(inside.rule == "december" && inside.since == m + d && inside.until == m + 3 * d)
            #expect(schedule.decision(for: "HDMI-A-1", at: m + 3 * d) == nil, "after the range")
            // Open all the time: since and until are the bounds eight days around.
            let always = try #require(schedule.decision(for: "HDMI-A-2", at: m))
            #expect(always.since == m - 8 * d && always.until == m + 8 * d)
            #expect(schedule.decision(for: nil, at: m) == nil, "no connector: only rules for every output")
            #expect(schedule.decision(for: "HDMI-A-2", at: .infinity) == nil, "no time, no decision")
            #expect(schedule.decision(for: "HDMI-A-2", at: .nan) == nil)
            #expect(schedule.changes(for: "HDMI-A-2", from: m, to: .infinity).isEmpty)
        }
        let onlyDefault = try Self.parse(Self.file("", extra: #""default": "off","#))
        try OffHoursTests.inZone("UTC") {
            let decision = try #require(onlyDefault.decision(for: nil, at: Self.monday))
            #expect(decision.content == .off && decision.rule == nil && decision.until == .infinity)
        }
    }

    @Test func theChangesOfAWeek() throws {
        let schedule = try Self.parse(
            Self.file(
                """
                {"name": "breakfast", "days": "weekdays", "from": "07:00", "to": "11:00", "content": "breakfast.json"},
                {"name": "night", "days": "daily", "from": "22:00", "to": "06:30", "crossesMidnight": true,
                 "content": "off"}
                """, extra: #""default": "promo.json","#))
        try OffHoursTests.inZone("UTC") {
            let (m, h, d) = (Self.monday, Self.hour, Self.day)
            let changes = schedule.changes(for: nil, from: m, to: m + 7 * d)
            // Every morning the night ends and every evening it begins (7 + 7); on weekdays
            // breakfast begins and ends (5 + 5). Monday 00:00 is inside Sunday's night: no change.
            #expect(changes.count == 24)
            #expect(changes.map(\.at) == changes.map(\.at).sorted())
            #expect(changes.prefix(4).map(\.at) == [m + 6.5 * h, m + 7 * h, m + 11 * h, m + 22 * h])
            #expect(changes.prefix(4).map { $0.decision?.rule } == [nil, "breakfast", nil, "night"])
            #expect(changes[1].decision?.until == m + 11 * h)
            // Saturday: the night ends at 06:30 and begins at 22:00, nothing between.
            let saturday = changes.filter { $0.at >= m + 5 * d && $0.at < m + 6 * d }.map(\.at)
            #expect(saturday == [m + 5 * d + 6.5 * h, m + 5 * d + 22 * h])
            // Each change's decision is the one `decision` takes then.
            for change in changes {
                #expect(schedule.decision(for: nil, at: change.at) == change.decision)
            }
            // A change with none after it for more than the horizon: until is the horizon's bound.
            let rare = try Self.parse(Self.file(#"{"name": "eve", "dates": ["2026-12-08"], "content": "off"}"#))
            let only = rare.changes(for: nil, from: m, to: m + 3 * d)
            #expect(only.map(\.at) == [m + d, m + 2 * d])
            #expect(only[0].decision?.until == m + 2 * d)
            #expect(only[1].decision == nil, "no rule, no default: the output's own content")
            #expect(rare.decision(for: nil, at: m + d)?.until == only[0].decision?.until)
            let endless = try Self.parse(
                Self.file(#"{"name": "from tuesday", "days": "daily", "startDate": "2026-12-08", "content": "off"}"#))
            let begins = endless.changes(for: nil, from: m, to: m + 3 * d)
            #expect(begins.count == 1 && begins[0].at == m + d)
            #expect(begins[0].decision?.until == m + 9 * d, "no change within the horizon: its bound")
            #expect(endless.decision(for: nil, at: m + d) == begins[0].decision)
        }
    }

    /// 02:30–03:30 lasts as long as the wall clock says on the nights the clocks change.
    @Test func windowsOnTheNightsTheClocksChange() throws {
        let schedule = try Self.parse(
            Self.file(#"{"name": "small hours", "days": "daily", "from": "02:30", "to": "03:30", "content": "off"}"#))
        try OffHoursTests.inZone("Europe/Berlin") {
            // Spring: 03:00–03:30 CEST, half an hour from the jump at 01:00Z.
            let spring = try #require(schedule.decision(for: nil, at: 1_806_195_600))
            #expect(spring.since == 1_806_195_600 && spring.until - spring.since == 1800)
            #expect(schedule.decision(for: nil, at: 1_806_195_599) == nil)
            // Autumn: from the first 02:30 (CEST, 00:30Z) to 03:30 CET (02:30Z), two hours.
            let autumn = try #require(schedule.decision(for: nil, at: 1_792_888_200 + 3000))
            #expect(autumn.since == 1_792_888_200 && autumn.until - autumn.since == 2 * 3600)
        }
        let american = try Self.parse(
            Self.file(#"{"name": "small hours", "days": "daily", "from": "01:30", "to": "03:30", "content": "off"}"#))
        try OffHoursTests.inZone("America/New_York") {
            // 2027-03-14: 01:30 EST (06:30Z) to 03:30 EDT (07:30Z): one hour, not two.
            let spring = try #require(american.decision(for: nil, at: 1_805_007_600))
            #expect(spring.since == 1_805_007_600 - 1800 && spring.until - spring.since == 3600)
            // 2026-11-01: the first 01:30 (EDT, 05:30Z) to 03:30 EST (08:30Z): three hours.
            let autumn = try #require(american.decision(for: nil, at: 1_793_511_000))
            #expect(autumn.since == 1_793_511_000 && autumn.until - autumn.since == 3 * 3600)
        }
    }
}

/// The kiosk file's "schedule": inline, or a file of its own; its outputs are the kiosk's.
@Suite struct KioskScheduleTests {
    @Test func anInlineScheduleAndAScheduleFile() throws {
        let plan = try KioskFileTests.parse(
            """
            {"format": "kiosk/1",
             "outputs": [{"connector": "HDMI-A-1", "content": "menu.json"}, {"connector": "HDMI-A-2", "content": "ripples"}],
             "schedule": {"timeZone": "UTC", "default": "off",
                          "rules": [{"name": "lunch", "days": "daily", "from": "11:00", "to": "14:00",
                                     "content": "lunch.json", "outputs": ["hdmi-a-2"]}]}}
            """)
        let schedule = try #require(plan.schedule)
        #expect(schedule.rules[0].outputs == ["HDMI-A-2"], "spelt as the outputs spell it")
        #expect(schedule.rules[0].content == .file("/etc/swell/lunch.json"))
        #expect(schedule.defaultContent == .off)
        #expect(plan.scheduleFile == nil)
        let named = try KioskFileTests.parse(
            #"{"format": "kiosk/1", "outputs": [{"content": "ripples"}], "schedule": "week.json"}"#)
        #expect(named.scheduleFile == "/etc/swell/week.json" && named.schedule == nil)
        // A new schedule takes effect while running: it is not a difference that needs a restart.
        #expect(named.differences(from: plan).contains("schedule") == false)
        var changed = plan
        changed.schedule?.defaultContent = nil
        #expect(changed.differences(from: plan).isEmpty)
        #expect(changed.scheduleDiffers(from: plan) && !plan.scheduleDiffers(from: plan))
    }

    @Test func aRuleNamesOutputsOfTheKiosk() {
        let problems = KioskFileTests.problems(
            """
            {"format": "kiosk/1", "outputs": [{"connector": "HDMI-A-1", "content": "ripples"}],
             "schedule": {"rules": [{"name": "a", "days": "daily", "content": "off", "outputs": ["DP-1"]}],
                          "format": "schedule/1"}}
            """)
        #expect(
            problems == [
                "$.schedule.format: unknown member; allowed here: timeZone, default, rules",
                "$.schedule.rules[0].outputs[0]: \"DP-1\" is not an output of this kiosk (HDMI-A-1)",
            ])
        let span = KioskFileTests.problems(
            """
            {"format": "kiosk/1", "span": {"outputs": [{"connector": "HDMI-A-1"}, {"connector": "HDMI-A-2"}],
             "content": "ripples"},
             "schedule": {"rules": [{"name": "a", "days": "daily", "content": "off", "outputs": ["HDMI-A-1"]}]}}
            """)
        #expect(span.count == 1 && span[0].hasPrefix("$.schedule.rules[0].outputs[0]: this kiosk names no connector"))
    }

    @Test func aContentThatDoesNotExistIsRefusedAtLoad() {
        let text = """
            {"format": "kiosk/1", "outputs": [{"content": "ripples"}],
             "schedule": {"default": "gone.json", "rules": [{"name": "a", "days": "daily", "content": "here.json"}]}}
            """
        do {
            _ = try parseKioskFile(
                bytes: Array(text.utf8), name: "/etc/swell/kiosk.json", contentExists: { $0.hasSuffix("here.json") })
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.problems == ["$.schedule.default: /etc/swell/gone.json does not exist"])
        }
        #expect(KioskFileTests.problems(text).isEmpty, "without a check, names are not looked up")
    }
}

/// `decision` against a plain reading of the rules minute by minute: random schedules (weekly and
/// one-off rules, windows over midnight, priorities, ties left to the list's order) over nine days
/// around each night Berlin's clocks change.
@Suite struct ScheduleReferenceTests {
    /// A small deterministic generator (no seeding differences between runs).
    struct Generator {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
    }

    /// `first`: the first of the nine days scanned.
    static func randomSchedule(_ generator: inout Generator, first: LocalDate) -> Schedule {
        var rules: [Schedule.Rule] = []
        for index in 0..<generator.next(1...5) {
            let days: Schedule.Rule.Days
            if generator.next(0...3) == 0 {
                days = .dates([first.adding(days: generator.next(-1...8))])
            } else {
                days = .weekdays(Set((0..<generator.next(1...7)).map { _ in generator.next(0...6) }))
            }
            // Minutes on the half hour, so that 02:00–03:00 (skipped that night) comes up often.
            let from = generator.next(0...47) * 30
            let crosses = generator.next(0...3) == 0
            let to = crosses ? generator.next(0...(from / 30)) * 30 : generator.next((from / 30 + 1)...48) * 30
            rules.append(
                Schedule.Rule(
                    name: "r\(index)", days: days, from: from, to: to, crossesMidnight: crosses,
                    priority: generator.next(0...1), content: .file("c\(index % 3)")))
        }
        let fallback: Schedule.Content? = generator.next(0...1) == 0 ? nil : .off
        return Schedule(rules: rules, defaultContent: fallback)
    }

    static func isDated(_ rule: Schedule.Rule) -> Bool {
        if case .dates = rule.days { return true }
        return false
    }

    /// Each rule's windows on the dates around the scan, read plainly: (open, close, rule).
    static func windows(_ schedule: Schedule, first: LocalDate) -> [(open: Double, close: Double, rule: Int)] {
        var windows: [(open: Double, close: Double, rule: Int)] = []
        for (index, rule) in schedule.rules.enumerated() {
            for day in -3...10 {
                let date = first.adding(days: day)
                guard rule.opens(on: date) else { continue }
                let window = rule.window(on: date)
                windows.append((window.open, window.close, index))
            }
        }
        return windows
    }

    /// Which rule wins at `unix`: of the windows open then, a one-off rule's over a weekly one's,
    /// then the higher priority, then the earlier in the list.
    static func reference(
        _ schedule: Schedule, _ windows: [(open: Double, close: Double, rule: Int)], at unix: Double
    ) -> Int? {
        var winner: Int?
        for window in windows where window.open <= unix && unix < window.close {
            guard let best = winner else {
                winner = window.rule
                continue
            }
            let (a, b) = (schedule.rules[window.rule], schedule.rules[best])
            let wins =
                isDated(a) != isDated(b)
                ? isDated(a) : a.priority != b.priority ? a.priority > b.priority : window.rule < best
            if wins { winner = window.rule }
        }
        return winner
    }

    @Test func decisionsMatchAPlainReading() {
        OffHoursTests.inZone("Europe/Berlin") {
            var generator = Generator(state: 38)
            // From 2027-03-25 over the spring night, and from 2026-10-22 over the autumn one.
            let scans: [(LocalDate, Double)] = [
                (LocalDate(year: 2027, month: 3, day: 25), 1_805_929_200),  // 2027-03-24T23:00:00Z
                (LocalDate(year: 2026, month: 10, day: 22), 1_792_620_000),  // 2026-10-21T22:00:00Z
            ]
            for round in 0..<60 {
                let (first, start) = scans[round % 2]
                let schedule = Self.randomSchedule(&generator, first: first)
                // The state minute by minute (every edge falls on a whole minute here).
                let minutes = 9 * 24 * 60
                let windows = Self.windows(schedule, first: first)
                let states = (0...minutes).map { Self.reference(schedule, windows, at: start + Double($0) * 60) }
                for probe in stride(from: 0, to: minutes, by: 97) {
                    let time = start + Double(probe) * 60 + 7
                    let decision = schedule.decision(for: nil, at: time)
                    let expected = states[probe]
                    guard let expected else {
                        #expect(decision?.rule == nil, "\(schedule) at \(time)")
                        #expect((decision == nil) == (schedule.defaultContent == nil))
                        continue
                    }
                    #expect(decision?.rule == schedule.rules[expected].name, "\(schedule) at \(time)")
                    #expect(decision?.content == schedule.rules[expected].content)
                    // The next minute whose state differs, when it is within the scan.
                    if let change = states[(probe + 1)...].firstIndex(where: { $0 != expected }) {
                        let next = start + Double(change) * 60
                        if next < time + Schedule.horizon { #expect(decision?.until == next, "\(schedule) at \(time)") }
                    }
                    if let begun = states[...probe].lastIndex(where: { $0 != expected }) {
                        let since = max(start + Double(begun + 1) * 60, time - Schedule.horizon)
                        #expect(decision?.since == since, "\(schedule) at \(time)")
                    }
                }
            }
        }
    }
}

/// The parser's overlap check against a plain one: random pairs of rules of one kind and priority,
/// each window laid out date by date over four months as minutes, refused exactly when two meet.
@Suite struct ScheduleOverlapReferenceTests {
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// A rule as JSON and as the plain check reads it.
    static func randomRule(
        _ generator: inout ScheduleReferenceTests.Generator, name: String, dated: Bool
    ) -> (json: String, rule: Schedule.Rule) {
        let january = LocalDate(year: 2027, month: 1, day: 1)
        let from = generator.next(0...23) * 60
        let crosses = generator.next(0...2) == 0
        let to = crosses ? generator.next(0...(from / 60)) * 60 : generator.next((from / 60 + 1)...24) * 60
        func clock(_ minutes: Int) -> String {
            (minutes < 600 ? "0" : "") + "\(minutes / 60):00"
        }
        var members = [
            "\"name\": \"\(name)\"", "\"from\": \"\(clock(from))\"", "\"to\": \"\(clock(to))\"",
            "\"content\": \"off\"",
        ]
        if crosses { members.append("\"crossesMidnight\": true") }
        var rule = Schedule.Rule(
            name: name, days: .weekdays([]), from: from, to: to, crossesMidnight: crosses, content: .off)
        if dated {
            let dates = Set((0..<generator.next(1...3)).map { _ in january.adding(days: generator.next(0...9)) })
            rule.days = .dates(Array(dates))
            members.append("\"dates\": [" + dates.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
        } else {
            let days = Set((0..<generator.next(1...4)).map { _ in generator.next(0...6) })
            rule.days = .weekdays(days)
            members.append("\"days\": [" + days.map { "\"\(dayNames[$0])\"" }.joined(separator: ", ") + "]")
            if generator.next(0...1) == 0 {
                rule.startDate = january.adding(days: generator.next(0...40))
                members.append("\"startDate\": \"\(rule.startDate!)\"")
            }
            if generator.next(0...1) == 0 {
                rule.endDate = (rule.startDate ?? january).adding(days: generator.next(0...8))
                members.append("\"endDate\": \"\(rule.endDate!)\"")
            }
        }
        return ("{" + members.joined(separator: ", ") + "}", rule)
    }

    /// Whether two rules are ever open at once, date by date in minutes from 1970 (no zone).
    static func meet(_ a: Schedule.Rule, _ b: Schedule.Rule) -> Bool {
        let first = LocalDate(year: 2026, month: 12, day: 1).daysSinceEpoch
        for day in first...(first + 120) {
            let date = LocalDate(daysSinceEpoch: day)
            guard a.opens(on: date) else { continue }
            let openA = day * 1440 + a.from
            let closeA = day * 1440 + (a.crossesMidnight ? 1440 : 0) + a.to
            for shift in -1...1 where b.opens(on: date.adding(days: shift)) {
                let openB = (day + shift) * 1440 + b.from
                let closeB = (day + shift) * 1440 + (b.crossesMidnight ? 1440 : 0) + b.to
                if max(openA, openB) < min(closeA, closeB) { return true }
            }
        }
        return false
    }

    @Test func refusedExactlyWhenTwoWindowsMeet() {
        var generator = ScheduleReferenceTests.Generator(state: 2027)
        var refused = 0
        for round in 0..<400 {
            let dated = round % 4 == 0
            let a = Self.randomRule(&generator, name: "a", dated: dated)
            let b = Self.randomRule(&generator, name: "b", dated: dated)
            let text = #"{"format": "schedule/1", "rules": ["# + a.json + ", " + b.json + "]}"
            let problems = ScheduleTests.problems(text)
            let expected = Self.meet(a.rule, b.rule)
            #expect(problems.isEmpty != expected, "\(text): \(problems)")
            if expected {
                refused += 1
                #expect(problems.first?.hasPrefix("$.rules[1]: \"b\" and \"a\" ($.rules[0]) are both open ") == true)
            }
        }
        // Both answers come up often enough to mean something.
        #expect(refused > 60 && refused < 340, "\(refused) of 400 refused")
    }
}
