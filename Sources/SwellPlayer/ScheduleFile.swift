import SwellJSON
import SwellLoop
import SwellSystem

/// Parses a schedule file (`schedule/1`; docs/kiosk.md, "Schedules"): every problem found in one
/// pass, one line each naming its JSON path, as a kiosk file's. Content file names are relative
/// to this file's folder; "off" powers the display off; a name with no `/` and no `.json` is a
/// built-in scene's.
///
///     {"format": "schedule/1", "timeZone": "Europe/Berlin", "default": "promotions.json",
///      "rules": [{"name": "breakfast", "days": "weekdays", "from": "07:00", "to": "11:00",
///                 "content": "breakfast.json", "outputs": ["HDMI-A-1"]},
///                {"name": "night", "days": "daily", "from": "22:00", "to": "06:30",
///                 "crossesMidnight": true, "content": "off"},
///                {"name": "christmas eve", "dates": ["2026-12-24"], "from": "15:00", "to": "24:00",
///                 "content": "holiday.json", "priority": 1}]}
///
/// `outputs`: the connectors of the kiosk file that names this one (each rule's `outputs` must be
/// among them; nil: not checked). `contentExists`: when given, a content file it says does not
/// exist is a problem naming its JSON path (the command passes `fileExists`).
public func parseScheduleFile(
    bytes: [UInt8], name: String, outputs: [String]? = nil, contentExists: ((String) -> Bool)? = nil
) throws(KioskFileError) -> Schedule {
    try readKioskJSON(bytes: bytes, name: name, contentExists: contentExists) {
        $0.schedule($1, standalone: true, outputs: outputs)
    }
}

extension KioskFileReader {
    /// A schedule object: a `schedule/1` file's root (`standalone`, with its "format") or a kiosk
    /// file's inline "schedule". Nil after a problem.
    mutating func schedule(_ field: JSONField, standalone: Bool, outputs: [String]?) -> Schedule? {
        let allowed = (standalone ? ["format"] : []) + ["timeZone", "default", "rules"]
        guard isObject(field, allowed: allowed) else { return nil }
        if standalone { _ = check { () throws(JSONFieldError) in try field["format"].oneOf(["schedule/1"]) } }
        let before = problems.count
        var schedule = Schedule(rules: [])
        if let zone = optional(field, "timeZone"), let name = check({ () throws(JSONFieldError) in try zone.string() })
        {
            if let trouble = timeZoneProblem(name) {
                problem(zone, trouble.description)
            } else {
                schedule.timeZone = name
            }
        }
        if let fallback = optional(field, "default") { schedule.defaultContent = scheduleContent(fallback) }
        let items = check { () throws(JSONFieldError) in try field["rules"].array(count: 0...1000) } ?? []
        var read: [(rule: Schedule.Rule, field: JSONField)] = []
        var names: [String: JSONField] = [:]
        for item in items {
            // Names are compared even when a rule has other problems.
            if case .object(let members) = item.value, case .string(let name)? = members["name"], !name.isEmpty {
                if let first = names[name] {
                    problem(
                        (try? item["name"]) ?? item,
                        "\"\(name)\" is already \(first.path)'s name; give each rule its own name")
                } else {
                    names[name] = item
                }
            }
            guard let rule = rule(item, outputs: outputs) else { continue }
            read.append((rule, item))
        }
        // Overlaps among the rules that read well, whatever else is wrong.
        checkOverlaps(read)
        schedule.rules = read.map(\.rule)
        return problems.count == before ? schedule : nil
    }

    /// "off", a built-in scene's name, or a file relative to this file's folder.
    private mutating func scheduleContent(_ field: JSONField) -> Schedule.Content? {
        if case .string("off") = field.value { return .off }
        guard let name = contentName(field) else { return nil }
        let isFile = name.contains("/") || name.hasSuffix(".json")
        if isFile, let contentExists, !contentExists(name) {
            problem(field, "\(name) does not exist")
            return nil
        }
        return .file(name)
    }

    private static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    private mutating func rule(_ item: JSONField, outputs known: [String]?) -> Schedule.Rule? {
        let allowed = [
            "name", "outputs", "days", "dates", "startDate", "endDate", "from", "to", "crossesMidnight", "priority",
            "content",
        ]
        guard isObject(item, allowed: allowed) else { return nil }
        let before = problems.count
        let name = check { () throws(JSONFieldError) in try item["name"].string() }
        if let name, name.isEmpty, let field = optional(item, "name") { problem(field, "expected a name, got \"\"") }
        let content = check { () throws(JSONFieldError) in try item["content"] }.flatMap { scheduleContent($0) }
        var outputs: [String] = []
        if let field = optional(item, "outputs") {
            outputs = ruleOutputs(field, known: known)
        }
        // The days: exactly one of "days" and "dates".
        var days: Schedule.Rule.Days?
        let daysField = optional(item, "days")
        let datesField = optional(item, "dates")
        switch (daysField, datesField) {
        case (let field?, nil): days = weekdays(field).map { .weekdays($0) }
        case (nil, let field?): days = dates(field).map { .dates($0) }
        case (_?, _?): problem(item, "give \"days\" (every week) or \"dates\" (those dates only), not both")
        case (nil, nil): problem(item, "missing required member \"days\" (or \"dates\"): on which days the rule opens")
        }
        var range: [LocalDate?] = [nil, nil]
        for (index, key) in ["startDate", "endDate"].enumerated() {
            guard let field = optional(item, key) else { continue }
            if datesField != nil {
                problem(field, "\"\(key)\" goes with \"days\"; a rule of \"dates\" opens on those dates only")
                continue
            }
            range[index] = date(field)
        }
        if let start = range[0], let end = range[1], end < start, let field = optional(item, "endDate") {
            problem(field, "\(end) is before \"startDate\" \(start)")
        }
        let from = optional(item, "from").map { clock($0, allowsEnd: false) } ?? 0
        let to = optional(item, "to").map { clock($0, allowsEnd: true) } ?? 1440
        var crosses = false
        if let field = optional(item, "crossesMidnight") {
            crosses = check { () throws(JSONFieldError) in try field.bool() } ?? false
        }
        if let from, let to {
            let span = "\(OffHours.clockText(from))–\(OffHours.clockText(to))"
            if crosses, to > from, let field = optional(item, "crossesMidnight") {
                problem(
                    field,
                    "the window \(span) ends on the day it opens (\"to\" is after \"from\"): leave \"crossesMidnight\" out"
                )
            } else if !crosses, to <= from {
                problem(
                    optional(item, "to") ?? item,
                    "\"to\" is not after \"from\" (\(span)): a window that ends the next day says \"crossesMidnight\": true"
                )
            }
        }
        let priority = optional(item, "priority").flatMap { field in
            check { () throws(JSONFieldError) in try field.integer(in: -1000...1000) }
        }
        guard problems.count == before, let name, let content, let days, let from, let to else { return nil }
        return Schedule.Rule(
            name: name, outputs: outputs, days: days, startDate: range[0], endDate: range[1], from: from, to: to,
            crossesMidnight: crosses, priority: priority ?? 0, content: content)
    }

    /// A rule's connectors, spelt as the kiosk file's outputs spell them.
    private mutating func ruleOutputs(_ field: JSONField, known: [String]?) -> [String] {
        guard let items = check({ () throws(JSONFieldError) in try field.array(count: 1...64) }) else { return [] }
        var names: [String] = []
        for item in items {
            guard let name = check({ () throws(JSONFieldError) in try item.string() }) else { continue }
            guard let known else {
                names.append(name)
                continue
            }
            if let match = known.first(where: { $0.lowercased() == name.lowercased() }) {
                names.append(match)
            } else if known.isEmpty {
                problem(
                    item,
                    "this kiosk names no connector to choose from (one output with no connector, or a span "
                        + "showing one content): leave \"outputs\" out")
            } else {
                problem(item, "\"\(name)\" is not an output of this kiosk (\(known.joined(separator: ", ")))")
            }
        }
        return names
    }

    private mutating func weekdays(_ field: JSONField) -> Set<Int>? {
        if case .string(let text) = field.value {
            switch text {
            case "daily": return Set(0...6)
            case "weekdays": return Set(1...5)
            case "weekend": return [0, 6]
            default:
                problem(
                    field,
                    "expected \"daily\", \"weekdays\", \"weekend\" or a list of days such as [\"mon\", \"sat\"], "
                        + "got \"\(text)\"")
                return nil
            }
        }
        guard let items = check({ () throws(JSONFieldError) in try field.array(count: 1...7) }) else { return nil }
        var days = Set<Int>()
        var valid = true
        for item in items {
            guard let text = check({ () throws(JSONFieldError) in try item.string() }) else {
                valid = false
                continue
            }
            guard let day = Self.dayNames.firstIndex(of: text) else {
                problem(item, "expected a day: mon, tue, wed, thu, fri, sat or sun, got \"\(text)\"")
                valid = false
                continue
            }
            if !days.insert(day).inserted {
                problem(item, "\(text) is given twice")
                valid = false
            }
        }
        return valid ? days : nil
    }

    private mutating func dates(_ field: JSONField) -> [LocalDate]? {
        guard let items = check({ () throws(JSONFieldError) in try field.array(count: 1...1000) }) else { return nil }
        var dates: [LocalDate] = []
        for item in items {
            guard let date = date(item) else { continue }
            if dates.contains(date) {
                problem(item, "\(date) is given twice")
                continue
            }
            dates.append(date)
        }
        return dates.count == items.count ? dates : nil
    }

    private mutating func date(_ field: JSONField) -> LocalDate? {
        guard let text = check({ () throws(JSONFieldError) in try field.string() }) else { return nil }
        guard let date = LocalDate(parsing: text), (1900...9999).contains(date.year) else {
            problem(field, "expected a date YYYY-MM-DD that exists, such as 2027-02-28, got \"\(text)\"")
            return nil
        }
        return date
    }

    /// "HH:MM" as minutes after midnight: 00:00...23:59, and 24:00 too for an end.
    private mutating func clock(_ field: JSONField, allowsEnd: Bool) -> Int? {
        guard let text = check({ () throws(JSONFieldError) in try field.string() }) else { return nil }
        if allowsEnd, text == "24:00" { return 1440 }
        guard let minutes = OffHours.minutes(parsing: text) else {
            problem(
                field,
                "expected a local time HH:MM from 00:00 to \(allowsEnd ? "24:00" : "23:59"), got \"\(text)\"")
            return nil
        }
        return minutes
    }

    /// Two rules of one kind and priority that can reach one output must not be open at once.
    private mutating func checkOverlaps(_ rules: [(rule: Schedule.Rule, field: JSONField)]) {
        for later in rules.indices {
            for earlier in 0..<later {
                let (a, b) = (rules[earlier].rule, rules[later].rule)
                guard a.isDated == b.isDated, a.priority == b.priority, Self.shareAnOutput(a, b),
                    let when = Self.overlap(a, b)
                else { continue }
                problem(
                    rules[later].field,
                    "\"\(b.name)\" and \"\(a.name)\" (\(rules[earlier].field.path)) are both open \(when) at the "
                        + "same priority \(a.priority) for the same output: give one a higher \"priority\" or "
                        + "move a window")
            }
        }
    }

    static func shareAnOutput(_ a: Schedule.Rule, _ b: Schedule.Rule) -> Bool {
        a.outputs.isEmpty || b.outputs.isEmpty
            || a.outputs.contains { name in b.outputs.contains { $0.lowercased() == name.lowercased() } }
    }

    /// Where two rules' windows overlap ("on Mondays 12:00–13:00", "on 2026-12-24 15:00–16:00"),
    /// exactly: each window's minutes relative to the midnight of the date it opens on (to the
    /// next day's when it crosses midnight), for windows opening on the same date or a day apart,
    /// on dates both rules open on. Nil when they never do.
    static func overlap(_ a: Schedule.Rule, _ b: Schedule.Rule) -> String? {
        let endA = a.crossesMidnight ? 1440 + a.to : a.to
        let endB = b.crossesMidnight ? 1440 + b.to : b.to
        for shift in -1...1 {
            // b's window opening `shift` days after a's date, in minutes from a's date's midnight.
            let start = max(a.from, shift * 1440 + b.from)
            let end = min(endA, shift * 1440 + endB)
            guard start < end, let occasion = commonDate(a, b, shift: shift) else { continue }
            // Worded from the date the overlap begins on.
            let days = start / 1440
            let text = "\(OffHours.clockText(start % 1440))–\(OffHours.clockText(end - days * 1440))"
            switch occasion {
            case .date(let date): return "on \(date.adding(days: days)) \(text)"
            case .weekday(let day): return "on \(weekdayNames[(day + days) % 7]) \(text)"
            case .everyDay: return "every day \(text)"
            }
        }
        return nil
    }

    private static let weekdayNames = [
        "Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays",
    ]

    private enum Occasion {
        case date(LocalDate)
        /// Every such weekday (0 is Sunday) within both rules' date ranges.
        case weekday(Int)
        case everyDay
    }

    /// A date `a` opens on such that `b` opens on the date `shift` days later.
    private static func commonDate(_ a: Schedule.Rule, _ b: Schedule.Rule, shift: Int) -> Occasion? {
        switch (a.days, b.days) {
        case (.dates(let first), .dates):
            return first.first { b.opens(on: $0.adding(days: shift)) }.map { .date($0) }
        case (.weekdays(let first), .weekdays(let second)):
            // The dates both ranges allow for a's window.
            let low = [a.startDate, b.startDate?.adding(days: -shift)].compactMap { $0 }.max()
            let high = [a.endDate, b.endDate?.adding(days: -shift)].compactMap { $0 }.min()
            if let low, let high, high < low { return nil }
            if let low, let high, high.daysSinceEpoch - low.daysSinceEpoch < 7 {
                var date = low
                while date <= high {
                    if a.opens(on: date), b.opens(on: date.adding(days: shift)) { return .date(date) }
                    date = date.adding(days: 1)
                }
                return nil
            }
            let days = first.sorted().filter { second.contains(($0 + shift + 7) % 7) }
            if days.count == 7 { return .everyDay }
            return days.first.map { .weekday($0) }
        default:
            return nil
        }
    }
}
