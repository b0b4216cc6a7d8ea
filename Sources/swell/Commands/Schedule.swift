import SwellJSON
import SwellLoop
import SwellPlayer
import SwellSystem

let scheduleVerb = Verb(
    name: "schedule",
    summary: "say what a kiosk's schedule shows at a time, or every change over a range",
    synopsis: "FILE.json (--at TIME | --from TIME --to TIME)",
    details: """
        FILE.json is a kiosk file with a "schedule" or a schedule file ("format": "schedule/1"). A
        TIME is local, "YYYY-MM-DD HH:MM" or "YYYY-MM-DD HH:MM:SS", in the schedule's "timeZone"
        (else the system's); one the clocks skip or say twice is taken as the schedule takes it,
        and a note says which instant that is. --at prints the time with its weekday, zone and UTC
        offset, then what each output shows then and why: the rule and its window, since when and
        until when (or the default, or the output's own content). --from and --to list every
        change from one time to the other (at most 366 days), one line each: the time, the output,
        what it shows and why; the first lines say what each shows at the start.
          swell schedule /etc/swell/kiosk.json --at "2026-12-24 16:00"
          swell schedule week.json --from "2026-12-21 00:00" --to "2026-12-28 00:00"
        Exit status: 64 usage (a bad time, --at with --from, --to not after --from, a range over
        366 days), 65 a file that does not check out or has no schedule, 66 one that cannot be read.
        """,
    options: [
        .option("at", "TIME", "what each output shows at this local time"),
        .option("from", "TIME", "list the changes from this local time…"),
        .option("to", "TIME", "…to this one"),
    ],
    run: runSchedule)

/// A local time as written on the command line, before the zone makes it an instant.
struct WrittenTime {
    let text: String
    let date: LocalDate
    let secondOfDay: Int

    /// "YYYY-MM-DD HH:MM" or "YYYY-MM-DD HH:MM:SS".
    init(_ text: String, option: String) throws {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        let clock = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : []
        let numbers = clock.map { $0.count == 2 && $0.allSatisfy(\.isASCII) ? Int($0) : nil }
        guard parts.count == 2, let date = LocalDate(parsing: String(parts[0])), (2...3).contains(numbers.count),
            let hour = numbers[0], let minute = numbers[1], (0..<24).contains(hour), (0..<60).contains(minute)
        else {
            throw CommandFailure(
                ExitStatus.usage,
                "--\(option) wants a local time \"YYYY-MM-DD HH:MM\" or \"YYYY-MM-DD HH:MM:SS\" that exists, not '\(text)'"
            )
        }
        var second = 0
        if numbers.count == 3 {
            guard let value = numbers[2], (0..<60).contains(value) else {
                throw CommandFailure(ExitStatus.usage, "--\(option): the seconds of '\(text)' are not 00...59")
            }
            second = value
        }
        self.text = text
        self.date = date
        self.secondOfDay = hour * 3600 + minute * 60 + second
    }

    /// The instant in the process's zone, with a note when the clocks skip it or say it twice.
    func instant(zone: String) -> (unix: Double, note: String?) {
        let (y, m, d, s) = (date.year, date.month, date.day, secondOfDay)
        let unix = LocalTime.firstInstant(year: y, month: m, day: d, secondOfDay: s)
        if LocalTime.isSkipped(year: y, month: m, day: d, secondOfDay: s) {
            return (
                unix,
                "\(text) does not happen in \(zone) (the clocks go forward over it); taken as the moment they "
                    + "jump, \(describeLocal(unix))"
            )
        }
        if LocalTime.happensTwice(year: y, month: m, day: d, secondOfDay: s) {
            return (
                unix,
                "\(text) happens twice in \(zone) (the clocks go back over it); taken as the first, "
                    + describeLocal(unix)
            )
        }
        return (unix, nil)
    }
}

/// One output a schedule decides for: its connector (nil: every output, or the one display), how
/// it is named, and its own content when the kiosk file says it.
private struct ScheduledOutput {
    let connector: String?
    let label: String
    let ownContent: String?
}

private func runSchedule(_ arguments: ParsedArguments) throws -> Int32 {
    guard arguments.positional.count == 1 else {
        throw CommandFailure(
            ExitStatus.usage, "expected one kiosk or schedule file, got \(arguments.positional.count) arguments")
    }
    let at = try arguments["at"].map { try WrittenTime($0, option: "at") }
    let from = try arguments["from"].map { try WrittenTime($0, option: "from") }
    let to = try arguments["to"].map { try WrittenTime($0, option: "to") }
    switch (at, from, to) {
    case (_?, nil, nil), (nil, _?, _?): break
    case (_?, _, _): throw CommandFailure(ExitStatus.usage, "give --at, or --from and --to, not both")
    case (nil, _, _): throw CommandFailure(ExitStatus.usage, "give --at TIME, or --from TIME and --to TIME")
    }
    let path = arguments.positional[0]
    let (schedule, outputs) = try loadSchedule(path)
    let zone: String
    if let name = schedule.timeZone {
        do {
            try useTimeZone(name)
        } catch {
            throw CommandFailure(ExitStatus.dataError, "\(path): \(error)")
        }
        zone = name
    } else {
        zone = "the system's time zone"
    }
    if let at {
        let (unix, note) = at.instant(zone: zone)
        if let note { printNow("note: " + note) }
        printAt(schedule, outputs, unix: unix, zone: schedule.timeZone)
        return ExitStatus.success
    }
    guard let from, let to else { return ExitStatus.usage }
    let start = from.instant(zone: zone)
    let end = to.instant(zone: zone)
    for note in [start.note, end.note].compactMap({ $0 }) { printNow("note: " + note) }
    guard end.unix > start.unix else {
        throw CommandFailure(ExitStatus.usage, "--to '\(to.text)' is not after --from '\(from.text)'")
    }
    guard end.unix - start.unix <= 366 * 86_400 else {
        throw CommandFailure(ExitStatus.usage, "--from '\(from.text)' to --to '\(to.text)' is over 366 days")
    }
    printChanges(schedule, outputs, from: start.unix, to: end.unix)
    return ExitStatus.success
}

/// A kiosk file's schedule and its outputs, or a schedule file's for every output.
private func loadSchedule(_ path: String) throws -> (Schedule, [ScheduledOutput]) {
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(path)
    } catch {
        throw CommandFailure(ExitStatus.noInput, "\(path): cannot read: \(error)")
    }
    var isScheduleFile = false
    if case .object(let root)? = try? parseJSON(bytes), root["format"] == .string("schedule/1") {
        isScheduleFile = true
    }
    if isScheduleFile {
        let schedule = try loadScheduleFile(path, outputs: nil, checkingContents: false)
        var named: [String] = []
        for rule in schedule.rules {
            for name in rule.outputs where !named.contains(where: { $0.lowercased() == name.lowercased() }) {
                named.append(name)
            }
        }
        let outputs =
            named.map { ScheduledOutput(connector: $0, label: $0, ownContent: nil) }
            + [
                ScheduledOutput(
                    connector: nil, label: named.isEmpty ? "every output" : "any other output", ownContent: nil)
            ]
        return (schedule, outputs)
    }
    let plan = try loadKioskPlan(path, checkingContents: false)
    guard let schedule = plan.schedule else {
        throw CommandFailure(ExitStatus.dataError, "\(path) has no \"schedule\": its outputs always show their content")
    }
    switch plan.layout {
    case .outputs(let list):
        return (
            schedule,
            list.map {
                ScheduledOutput(connector: $0.connector, label: $0.connector ?? "the display", ownContent: $0.content)
            }
        )
    case .span(let span):
        let label = "the span " + span.outputs.map(\.connectorName).joined(separator: " + ")
        return (schedule, [ScheduledOutput(connector: nil, label: label, ownContent: span.content)])
    }
}

private func printAt(_ schedule: Schedule, _ outputs: [ScheduledOutput], unix: Double, zone: String?) {
    printNow(describeLocal(unix, withZone: true) + (zone.map { ", \($0)" } ?? ""))
    for output in outputs {
        let decision = schedule.decision(for: output.connector, at: unix)
        var line = "\(output.label): " + shown(decision, output)
        if let decision {
            if let name = decision.rule, let rule = schedule.rules.first(where: { $0.name == name }) {
                line += " by rule \"\(name)\" (\(describeWindow(rule)))"
            } else {
                line += " by default"
            }
            let since =
                decision.since <= unix - Schedule.horizon
                ? "since 8 days or more" : "since \(describeLocal(decision.since))"
            let until: String
            if decision.until == .infinity {
                until = "never changes"
            } else if decision.until >= unix + Schedule.horizon {
                until = "no change within 8 days"
            } else {
                until = "until \(describeLocal(decision.until))"
            }
            line += ", \(since), \(until)"
        }
        printNow(line)
    }
}

private func printChanges(_ schedule: Schedule, _ outputs: [ScheduledOutput], from: Double, to: Double) {
    var lines: [(at: Double, order: Int, text: String)] = []
    for (order, output) in outputs.enumerated() {
        let first = schedule.decision(for: output.connector, at: from)
        lines.append((from, order, row(from, output, first, why: "at the start")))
        for change in schedule.changes(for: output.connector, from: from, to: to) where change.at > from {
            lines.append((change.at, order, row(change.at, output, change.decision, why: nil)))
        }
    }
    lines.sort { ($0.at, $0.order) < ($1.at, $1.order) }
    for line in lines { printNow(line.text) }
}

private func row(_ unix: Double, _ output: ScheduledOutput, _ decision: Schedule.Decision?, why: String?) -> String {
    let reason = decision.map { $0.rule.map { "rule \"\($0)\"" } ?? "default" } ?? "no rule, no default"
    return "\(describeLocal(unix, withZone: true))  \(output.label)  \(shown(decision, output))  "
        + "(\(reason)\(why.map { ", \($0)" } ?? ""))"
}

/// What an output shows under `decision`.
private func shown(_ decision: Schedule.Decision?, _ output: ScheduledOutput) -> String {
    guard let decision else { return "its own content" + (output.ownContent.map { " (\($0))" } ?? "") }
    switch decision.content {
    case .off: return "off (display powered off)"
    case .file(let name): return name
    }
}

/// "daily 22:00–06:30 the next day", "on 2026-12-24 15:00–24:00, priority 1" and the like.
private func describeWindow(_ rule: Schedule.Rule) -> String {
    var days: String
    switch rule.days {
    case .weekdays(let set):
        let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        if set.count == 7 {
            days = "daily"
        } else if set == [1, 2, 3, 4, 5] {
            days = "weekdays"
        } else if set == [0, 6] {
            days = "weekend"
        } else {
            days = ([1, 2, 3, 4, 5, 6, 0].filter(set.contains).map { names[$0] }).joined(separator: ", ")
        }
        if let start = rule.startDate { days += " from \(start)" }
        if let end = rule.endDate { days += " to \(end)" }
    case .dates(let dates):
        days = "on " + dates.map(\.description).joined(separator: ", ")
    }
    let window =
        OffHours.clockText(rule.from) + "–" + OffHours.clockText(rule.to)
        + (rule.crossesMidnight ? " the next day" : "")
    return "\(days) \(window)" + (rule.priority != 0 ? ", priority \(rule.priority)" : "")
}

/// "2026-12-24 16:00 Thu CET" (with the seconds when not 0), and "(UTC+01:00)" after it when
/// `withZone`.
func describeLocal(_ unix: Double, withZone: Bool = false) -> String {
    let time = LocalTime(unixSeconds: unix)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    var text = "\(time.date) \(two(time.hour)):\(two(time.minute))"
    if time.second != 0 { text += ":\(two(time.second))" }
    text += " \(weekdays[time.weekday]) \(time.zoneAbbreviation)"
    if withZone {
        let offset = abs(time.utcOffset)
        text += " (UTC\(time.utcOffset < 0 ? "-" : "+")\(two(offset / 3600)):\(two(offset / 60 % 60)))"
    }
    return text
}
