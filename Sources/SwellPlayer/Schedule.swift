import SwellSystem

/// What each output of a kiosk shows when: rules of local times on weekdays or on dates, each with
/// a content, and a default (docs/kiosk.md, "Schedules"). Pure: times are read in the process's
/// local time zone, which the caller sets from `timeZone` first (`useTimeZone`).
///
/// - A rule's window opens on a date at `LocalTime.firstInstant(date, from)` and closes at
///   `firstInstant(date, to)` (`to` on the next date when it `crossesMidnight`). So a window is as
///   long as the wall clock says: 02:30–03:30 lasts 30 minutes on the night the clocks go forward
///   at 02:00 (03:00–03:30 on the new clock), and two hours on the night they go back at 03:00
///   (from the first 02:30 to 03:30). A window belongs to the date it opens on (for `days`,
///   `dates`, `startDate` and `endDate`).
/// - Precedence: a rule of dates beats a weekly rule; between rules of one kind the higher
///   `priority` wins. The parser refuses two rules of one kind and priority whose windows
///   overlap on an output they both reach (so the earlier rule in the list winning a tie never
///   happens in a checked schedule).
/// - No rule open: `defaultContent`, else (nil decision) the output's own content.
public struct Schedule: Sendable, Equatable {
    public enum Content: Sendable, Equatable, CustomStringConvertible {
        /// A scene, page or playlist file, already resolved relative to the file that named it, or
        /// a built-in scene's name.
        case file(String)
        /// The display powered off.
        case off

        public var description: String {
            switch self {
            case .file(let name): name
            case .off: "off"
            }
        }
    }

    public struct Rule: Sendable, Equatable {
        public enum Days: Sendable, Equatable {
            /// Every week on these weekdays (0 is Sunday, as `LocalTime.weekday`).
            case weekdays(Set<Int>)
            /// On these dates only ("one-off" rules, which beat weekly ones).
            case dates([LocalDate])
        }

        /// Unique in its schedule.
        public var name: String
        /// The connectors it applies to ([]: every output).
        public var outputs: [String]
        public var days: Days
        /// With `.weekdays`: the first and last dates a window may open on (inclusive; nil: open).
        public var startDate: LocalDate?
        public var endDate: LocalDate?
        /// Minutes after local midnight: `from` 0...1439, `to` 0...1440 (24:00).
        public var from: Int
        public var to: Int
        /// `to` is on the next day (then `to` ≤ `from`; equal: 24 hours).
        public var crossesMidnight: Bool
        public var priority: Int
        public var content: Content

        public init(
            name: String, outputs: [String] = [], days: Days, startDate: LocalDate? = nil, endDate: LocalDate? = nil,
            from: Int = 0, to: Int = 1440, crossesMidnight: Bool = false, priority: Int = 0, content: Content
        ) {
            self.name = name
            self.outputs = outputs
            self.days = days
            self.startDate = startDate
            self.endDate = endDate
            self.from = from
            self.to = to
            self.crossesMidnight = crossesMidnight
            self.priority = priority
            self.content = content
        }

        /// Whether a window of this rule opens on `date`.
        public func opens(on date: LocalDate) -> Bool {
            switch days {
            case .weekdays(let weekdays):
                if let startDate, date < startDate { return false }
                if let endDate, endDate < date { return false }
                return weekdays.contains(date.weekday)
            case .dates(let dates):
                return dates.contains(date)
            }
        }

        /// Whether it applies to `output` (nil: an output with no connector named, which only
        /// rules for every output reach).
        public func reaches(_ output: String?) -> Bool {
            guard !outputs.isEmpty else { return true }
            guard let output else { return false }
            return outputs.contains { $0.lowercased() == output.lowercased() }
        }

        /// The window that opens on `date`, as Unix times (empty when the clocks skip all of it).
        public func window(on date: LocalDate) -> (open: Double, close: Double) {
            let open = LocalTime.firstInstant(year: date.year, month: date.month, day: date.day, minuteOfDay: from)
            let end = crossesMidnight ? date.adding(days: 1) : date
            let close = LocalTime.firstInstant(year: end.year, month: end.month, day: end.day, minuteOfDay: to)
            return (open, close)
        }

        var isDated: Bool {
            if case .dates = days { return true }
            return false
        }
    }

    public struct Decision: Sendable, Equatable {
        public var content: Content
        /// The rule's name; nil: the default.
        public var rule: String?
        /// Unix time this decision began (at most 8 days back; older: that bound).
        public var since: Double
        /// Unix time of the next instant the decision changes; +infinity when no rule reaches the
        /// output (it never changes), and the bound 8 days ahead when no change comes before it.
        public var until: Double

        public init(content: Content, rule: String?, since: Double, until: Double) {
            self.content = content
            self.rule = rule
            self.since = since
            self.until = until
        }
    }

    /// An IANA zone name such as Europe/Berlin; nil: the system's.
    public var timeZone: String?
    public var rules: [Rule]
    /// What shows when no rule is open; nil: the output's own "content" from the kiosk file.
    public var defaultContent: Content?

    public init(timeZone: String? = nil, rules: [Rule], defaultContent: Content? = nil) {
        self.timeZone = timeZone
        self.rules = rules
        self.defaultContent = defaultContent
    }

    /// How far `decision` looks back and ahead.
    public static let horizon: Double = 8 * 86_400

    /// What output `output` (a connector name; nil for a kiosk of one output with no connector
    /// named) shows at `unix`; nil when no rule applies and there is no default (the output shows
    /// its own content). Times are local in the process's TZ (the caller applies `timeZone`
    /// first). Only the windows of the rules reaching the output on the dates within the horizon
    /// around `unix` are looked at.
    /// A time that is not finite, or further than a few million years from 1970, has none.
    public func decision(for output: String?, at unix: Double) -> Decision? {
        guard unix.isFinite, abs(unix) < 1e14 else { return nil }
        let reaching = rules.indices.filter { rules[$0].reaches(output) }
        let lower = unix - Self.horizon
        let upper = unix + Self.horizon
        let segments = timeline(rules: reaching, from: lower, to: upper)
        // The segment holding `unix`, stretched over its neighbours of the same state.
        guard var index = segments.lastIndex(where: { $0.start <= unix }) else { return nil }
        let state = segments[index].state
        var since = segments[index].start
        while index > 0, segments[index - 1].state == state {
            index -= 1
            since = segments[index].start
        }
        let next = segments.first { $0.start > unix && $0.state != state }
        let until = next?.start ?? (reaching.isEmpty ? Double.infinity : upper)
        return decision(state, since: max(since, lower), until: until)
    }

    /// Every change for that output in [from, to), in order, with the decision taken at it (nil:
    /// the output's own content), each the same as `decision(for:at:)` then. The decision in
    /// force at `from` is `decision(for:at: from)`; a change exactly at `from` is listed.
    public func changes(for output: String?, from: Double, to: Double) -> [(at: Double, decision: Decision?)] {
        guard from < to, from.isFinite, to.isFinite, abs(from) < 1e14, abs(to) < 1e14 else { return [] }
        let reaching = rules.indices.filter { rules[$0].reaches(output) }
        let segments = timeline(rules: reaching, from: from - Self.horizon, to: to + Self.horizon)
        var result: [(at: Double, decision: Decision?)] = []
        for (index, segment) in segments.enumerated() where index > 0 {
            guard segment.start >= from, segment.start < to, segment.state != segments[index - 1].state else {
                continue
            }
            // As `decision` says it: the next change, or the bound a horizon ahead.
            let bound = segment.start + Self.horizon
            let next = segments[(index + 1)...].first { $0.state != segment.state }
            let until = next.map { min($0.start, bound) } ?? bound
            result.append((segment.start, decision(segment.state, since: segment.start, until: until)))
        }
        return result
    }

    /// Which rule is open (nil: none).
    struct State: Equatable {
        var rule: Int?
    }

    struct Segment {
        var start: Double
        var state: State
    }

    private func decision(_ state: State, since: Double, until: Double) -> Decision? {
        if let rule = state.rule {
            return Decision(content: rules[rule].content, rule: rules[rule].name, since: since, until: until)
        }
        guard let defaultContent else { return nil }
        return Decision(content: defaultContent, rule: nil, since: since, until: until)
    }

    /// The segments of constant state over [lower, upper): the first starts at `lower`, each
    /// next one at a window's edge where the winner may change (neighbours may hold the same
    /// state). A sweep over the windows that open on the dates around the range.
    func timeline(rules reaching: [Int], from lower: Double, to upper: Double) -> [Segment] {
        let first = LocalTime(unixSeconds: lower).date.adding(days: -2)
        let last = LocalTime(unixSeconds: upper).date.adding(days: 1)
        var windows: [(open: Double, close: Double, rule: Int)] = []
        var date = first
        while date <= last {
            for index in reaching where rules[index].opens(on: date) {
                let window = rules[index].window(on: date)
                if window.open < window.close, window.close > lower, window.open < upper {
                    windows.append((window.open, window.close, index))
                }
            }
            date = date.adding(days: 1)
        }
        var edges = Set([lower])
        for window in windows {
            if window.open > lower && window.open < upper { edges.insert(window.open) }
            if window.close > lower && window.close < upper { edges.insert(window.close) }
        }
        windows.sort { $0.open < $1.open }
        var next = 0
        var open: [(close: Double, rule: Int)] = []
        var segments: [Segment] = []
        for edge in edges.sorted() {
            while next < windows.count, windows[next].open <= edge {
                open.append((windows[next].close, windows[next].rule))
                next += 1
            }
            open.removeAll { $0.close <= edge }
            let winner = open.max { beats($1.rule, $0.rule) }
            segments.append(Segment(start: edge, state: State(rule: winner?.rule)))
        }
        return segments
    }

    /// Whether rule `a` wins over rule `b` when both are open: dates beat weekdays, then the
    /// higher priority, then the earlier in the list.
    func beats(_ a: Int, _ b: Int) -> Bool {
        let (x, y) = (rules[a], rules[b])
        if x.isDated != y.isDated { return x.isDated }
        if x.priority != y.priority { return x.priority > y.priority }
        return a < b
    }
}
