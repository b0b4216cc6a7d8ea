import SwellDisplay
import SwellInput
import SwellService
import SwellSystem

/// When an output's screen is off by the wall clock, whatever its content: a kiosk's night hours
/// (`OffHours`) or a schedule's "off" windows. The loop asks again only at the change it was told
/// of (or when the wall clock was set back), so `state` may cost a few mktime calls.
public protocol ScreenHours {
    /// Whether the screen is off at Unix time `unix`, and the Unix time of the next change.
    func state(at unix: Double) -> (off: Bool, next: Double)
    /// The journal's line for the screen going off (`off`) or coming on at a change at `unix`.
    func change(off: Bool, at unix: Double) -> String
}

/// A kiosk's night hours: the display is off every day from `from` to `to` in the local time
/// zone ("22:00" to "07:00" crosses midnight). Only the changes are acted on, so SIGUSR2 during
/// the night turns the screen on until the next morning's change, and SIGUSR1 by day turns it
/// off until the evening's. A night on which the clocks change is as long as the clock on the
/// wall says: the boundaries are local times, found with mktime (`LocalTime.unixSeconds`).
public struct OffHours: ScreenHours, Sendable, Equatable, CustomStringConvertible {
    /// Minutes after local midnight.
    public let from: Int
    public let to: Int

    /// Nil when `from` and `to` are the same minute (never off, or always: say which instead).
    public init?(from: Int, to: Int) {
        guard from != to, (0..<1440).contains(from), (0..<1440).contains(to) else { return nil }
        self.from = from
        self.to = to
    }

    /// "HH:MM" as minutes after midnight (00:00...23:59), or nil.
    public static func minutes(parsing text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    public var description: String { "\(Self.clockText(from))-\(Self.clockText(to))" }

    /// Minutes after midnight as "HH:MM" (1440 is "24:00").
    public static func clockText(_ minutes: Int) -> String {
        let hour = minutes / 60
        let minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    public func change(off: Bool, at unix: Double) -> String {
        off
            ? "screen off for the night (\(description)); SIGUSR2 turns it on"
            : "screen on (the night hours \(description) are over)"
    }

    /// Whether the screen is off at Unix time `unix`, and the Unix time of the next change.
    public func state(at unix: Double) -> (off: Bool, next: Double) {
        let today = LocalTime(unixSeconds: unix)
        var boundaries: [(time: Double, off: Bool)] = []
        for day in -1...1 {
            boundaries.append((today.unixSeconds(dayOffset: day, hour: from / 60, minute: from % 60), true))
            boundaries.append((today.unixSeconds(dayOffset: day, hour: to / 60, minute: to % 60), false))
        }
        // A night of no length (both ends the same instant) ends on: the screen stays on.
        boundaries.sort { $0.time < $1.time || ($0.time == $1.time && $0.off && !$1.off) }
        let past = boundaries.last { $0.time <= unix }
        let next = boundaries.first { $0.time > unix }
        return (past?.off ?? false, next?.time ?? unix + 86_400)
    }
}

/// Both hours at once: off while either says off (a schedule's "off" windows and the night hours).
public struct EitherHours: ScreenHours {
    public let first: any ScreenHours
    public let second: any ScreenHours

    public init(_ first: any ScreenHours, _ second: any ScreenHours) {
        self.first = first
        self.second = second
    }

    public func state(at unix: Double) -> (off: Bool, next: Double) {
        let (a, b) = (first.state(at: unix), second.state(at: unix))
        return (a.off || b.off, min(a.next, b.next))
    }

    public func change(off: Bool, at unix: Double) -> String {
        // Going off: the one that says off now. Coming on: the one that said off a moment ago.
        let firstSays = first.state(at: off ? unix : unix - 1).off
        return firstSays ? first.change(off: off, at: unix) : second.change(off: off, at: unix)
    }
}
