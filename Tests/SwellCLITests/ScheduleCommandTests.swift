import Foundation
import Testing

/// `swell schedule FILE --at TIME` and `--from … --to …`: what each output shows and every change,
/// read in the schedule's zone, with the exit statuses of sysexits(3).
@Suite struct ScheduleCommandTests {
    static let week = """
        {"format": "schedule/1", "timeZone": "Europe/Berlin", "default": "promotions.json",
         "rules": [
           {"name": "breakfast", "days": "weekdays", "from": "07:00", "to": "11:00", "content": "breakfast.json"},
           {"name": "lunch", "days": ["mon", "tue", "wed", "thu", "fri", "sat"], "from": "11:00", "to": "14:30",
            "content": "lunch.json", "outputs": ["HDMI-A-1"]},
           {"name": "night", "days": "daily", "from": "22:00", "to": "06:30", "crossesMidnight": true, "content": "off"},
           {"name": "christmas eve", "dates": ["2026-12-24"], "from": "15:00", "to": "24:00",
            "content": "holiday.json", "priority": 1}
         ]}
        """

    /// A folder holding week.json and a kiosk.json of two outputs that names it.
    static func folder() throws -> String {
        let folder = try temporaryFolder()
        try Data(week.utf8).write(to: URL(fileURLWithPath: folder + "/week.json"))
        let kiosk = """
            {"format": "kiosk/1", "schedule": "week.json",
             "outputs": [{"connector": "HDMI-A-1", "content": "menu.json"}, {"connector": "HDMI-A-2", "content": "ripples"}]}
            """
        try Data(kiosk.utf8).write(to: URL(fileURLWithPath: folder + "/kiosk.json"))
        return folder
    }

    @Test func whatEachOutputShowsAtATime() throws {
        let folder = try Self.folder()
        let run = try SwellProcess.run(["schedule", folder + "/kiosk.json", "--at", "2026-12-24 12:00"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "2026-12-24 12:00 Thu CET (UTC+01:00), Europe/Berlin", "\(run.stdout)")
        // Lunch reaches HDMI-A-1 only; HDMI-A-2 has shown the default since breakfast ended.
        #expect(
            lines.contains {
                $0.hasPrefix("HDMI-A-1: \(folder)/lunch.json by rule \"lunch\"")
                    && $0.contains("until 2026-12-24 14:30 Thu CET")
            },
            "\(run.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "HDMI-A-2: \(folder)/promotions.json by default, since 2026-12-24 11:00 Thu CET, until 2026-12-24 15:00 Thu CET"
                )
            }, "\(run.stdout)")
        // The one-off rule beats the night's.
        let eve = try SwellProcess.run(["schedule", folder + "/week.json", "--at", "2026-12-24 23:00"])
        #expect(eve.status == 0, "\(eve.stderr)")
        #expect(
            eve.stdout.contains("any other output: \(folder)/holiday.json by rule \"christmas eve\""), "\(eve.stdout)")
    }

    @Test func aTimeTheClocksSkipIsTheJump() throws {
        let folder = try Self.folder()
        let run = try SwellProcess.run(["schedule", folder + "/week.json", "--at", "2027-03-28 02:30"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("note: 2027-03-28 02:30 does not happen in Europe/Berlin"), "\(run.stdout)")
        #expect(run.stdout.contains("2027-03-28 03:00 Sun CEST (UTC+02:00)"), "\(run.stdout)")
        let twice = try SwellProcess.run(["schedule", folder + "/week.json", "--at", "2026-10-25 02:30:00"])
        #expect(twice.stdout.contains("happens twice in Europe/Berlin"), "\(twice.stdout)")
        #expect(twice.stdout.contains("2026-10-25 02:30 Sun CEST (UTC+02:00)"), "\(twice.stdout)")
    }

    @Test func everyChangeInARange() throws {
        let folder = try Self.folder()
        let run = try SwellProcess.run([
            "schedule", folder + "/kiosk.json", "--from", "2026-12-21 00:00", "--to", "2026-12-22 00:00",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // At the start both outputs are off (Sunday's night); then, for HDMI-A-1: 06:30 default,
        // 07:00 breakfast, 11:00 lunch, 14:30 default, 22:00 night; HDMI-A-2 has no lunch.
        let first = lines.filter { $0.contains("  HDMI-A-1  ") }.map { String($0.prefix(16)) }
        #expect(
            first == [
                "2026-12-21 00:00", "2026-12-21 06:30", "2026-12-21 07:00", "2026-12-21 11:00", "2026-12-21 14:30",
                "2026-12-21 22:00",
            ], "\(run.stdout)")
        #expect(lines.filter { $0.contains("  HDMI-A-2  ") }.count == 5, "\(run.stdout)")
        #expect(lines.map { String($0.prefix(16)) } == lines.map { String($0.prefix(16)) }.sorted())
        #expect(
            lines[0].hasSuffix("HDMI-A-1  off (display powered off)  (rule \"night\", at the start)"), "\(lines[0])")
    }

    @Test func usageInvalidAndUnreadable() throws {
        let folder = try Self.folder()
        let file = folder + "/week.json"
        for arguments in [
            ["--at", "2026-12-24"], ["--at", "2026-02-30 10:00"], ["--at", "2026-12-24 24:00"],
            ["--at", "2026-12-24 10:00", "--from", "2026-12-24 10:00"], ["--from", "2026-12-24 10:00"],
            ["--from", "2026-12-24 10:00", "--to", "2026-12-24 09:00"],
            ["--from", "2026-01-01 00:00", "--to", "2027-01-03 00:00"],
        ] {
            let run = try SwellProcess.run(["schedule", file] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
        let bad = folder + "/bad.json"
        try Data(
            #"{"format": "schedule/1", "timeZone": "Mars/Olympus", "rules": [{"name": "a", "days": "daily", "from": "25:00", "content": "off"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: bad))
        let invalid = try SwellProcess.run(["schedule", bad, "--at", "2026-12-24 10:00"])
        #expect(invalid.status == 65, "\(invalid.stderr)")
        #expect(invalid.stderr.contains("$.timeZone: unknown time zone \"Mars/Olympus\""), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("$.rules[0].from: expected a local time HH:MM"), "\(invalid.stderr)")
        let missing = try SwellProcess.run(["schedule", folder + "/none.json", "--at", "2026-12-24 10:00"])
        #expect(missing.status == 66, "\(missing.stderr)")
        let noSchedule = folder + "/plain.json"
        try Data(#"{"format": "kiosk/1", "outputs": [{"content": "ripples"}]}"#.utf8).write(
            to: URL(fileURLWithPath: noSchedule))
        let plain = try SwellProcess.run(["schedule", noSchedule, "--at", "2026-12-24 10:00"])
        #expect(plain.status == 65 && plain.stderr.contains("has no \"schedule\""), "\(plain.stderr)")
    }

    /// `--check` loads what the schedule shows: a content file that does not exist is refused at
    /// load, naming its JSON path.
    @Test func theCheckRefusesAScheduledFileThatDoesNotExist() throws {
        let folder = try Self.folder()
        let run = try SwellProcess.run(["run", "--kiosk", folder + "/kiosk.json", "--check"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("$.default: \(folder)/promotions.json does not exist"), "\(run.stderr)")
        #expect(run.stderr.contains("$.rules[0].content: \(folder)/breakfast.json does not exist"), "\(run.stderr)")
    }

    /// With every scheduled scene there, the check passes and says the schedule; a schedule file's
    /// rule that names a connector the kiosk file lacks is refused at load, naming its path.
    @Test func theCheckPassesAndOutputsAreTheKiosksOwn() throws {
        let folder = try Self.folder()
        for name in ["menu", "promotions", "breakfast", "lunch", "holiday"] {
            try Data(#"{"format": "scene/1", "scene": "ripples"}"#.utf8).write(
                to: URL(fileURLWithPath: "\(folder)/\(name).json"))
        }
        let run = try SwellProcess.run(["run", "--kiosk", folder + "/kiosk.json", "--check"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("a schedule of 4 rules (\(folder)/week.json) in Europe/Berlin"), "\(run.stdout)")
        let other = Self.week.replacingOccurrences(of: #""outputs": ["HDMI-A-1"]"#, with: #""outputs": ["DP-1"]"#)
        try Data(other.utf8).write(to: URL(fileURLWithPath: folder + "/week.json"))
        let refused = try SwellProcess.run(["schedule", folder + "/kiosk.json", "--at", "2026-12-24 12:00"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "$.rules[1].outputs[0]: \"DP-1\" is not an output of this kiosk (HDMI-A-1, HDMI-A-2)"),
            "\(refused.stderr)")
        // Alone, a schedule file's outputs are not checked: there is no kiosk to check them against.
        let alone = try SwellProcess.run(["schedule", folder + "/week.json", "--at", "2026-12-24 12:00"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("DP-1: \(folder)/lunch.json by rule \"lunch\""), "\(alone.stdout)")
    }
}
