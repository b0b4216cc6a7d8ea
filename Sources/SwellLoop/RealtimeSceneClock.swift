import SwellDisplay
import SwellInput
import SwellService

/// Scene time from the realtime clock, for a video wall: every box shows the scene at
/// (CLOCK_REALTIME − epoch), wrapped to `period` when one is given, so boxes whose clocks chrony
/// or linuxptp keep in step draw the same instant (a frame is a function of scene and time).
///
/// The realtime clock can step (chrony's `makestep` at boot, an operator's `date -s`). What this
/// does about it, so that the scene neither runs backwards for long nor stalls:
/// - a step forward is followed at once (the scene skips ahead, and is in step again);
/// - a step back of at most `largestHeldStep` seconds is not followed backwards: the scene runs
///   on at half speed (monotonic time) until the realtime clock has caught up, so it never
///   goes back and is in step again within twice the step;
/// - a larger step back is followed at once (one jump back: waiting at half speed for minutes
///   or hours would leave the tile out of step for that long).
/// Tiny slews (NTP's microseconds) fall under the first two rules and cost nothing visible:
/// a frame late by a microsecond advances by the realtime clock's reading, as long as that is
/// at least half the monotonic time since the previous frame.
public struct RealtimeSceneClock: Sendable, Equatable {
    /// Unix time at scene time 0 (seconds since 1970-01-01T00:00:00Z).
    public let epoch: Double
    /// Scene time wraps to 0 every `period` seconds after the epoch (nil: it never wraps).
    public let period: Double?
    /// Backward steps up to this many seconds are run out at half speed; larger ones followed.
    public static let largestHeldStep = 2.0

    /// The previous reading: unwrapped scene time and the monotonic time it was read at.
    private var previous: (scene: Double, monotonic: Double)?

    /// Two clocks are the same when they give the same scene times: the same epoch and period.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.epoch == rhs.epoch && lhs.period == rhs.period }

    public init(epoch: Double, period: Double?) {
        precondition(epoch.isFinite && (period ?? 1) > 0, "a finite epoch and a positive period")
        self.epoch = epoch
        self.period = period
    }

    /// The scene time for a reading of the realtime clock and the monotonic one (seconds,
    /// taken together); the mapping above. Readings must come in monotonic order.
    public mutating func sceneTime(realtime: Double, monotonic: Double) -> Double {
        let target = realtime - epoch
        var scene = target
        if let previous {
            let elapsed = max(0, monotonic - previous.monotonic)
            let predicted = previous.scene + elapsed
            let halfSpeed = previous.scene + elapsed / 2
            if target < halfSpeed && predicted - target <= Self.largestHeldStep { scene = halfSpeed }
        }
        previous = (scene, monotonic)
        return wrapped(scene)
    }

    /// Unix time at scene time 0 of the cycle holding unwrapped scene time `scene` (the epoch
    /// without a period): what a text element's wall clock starts from.
    public func cycleStart(at scene: Double) -> Double {
        guard let period else { return epoch }
        return epoch + (scene / period).rounded(.down) * period
    }

    /// The last unwrapped scene time (0 before the first reading).
    public var unwrappedTime: Double { previous?.scene ?? 0 }

    private func wrapped(_ scene: Double) -> Double {
        guard let period else { return scene }
        let remainder = scene.truncatingRemainder(dividingBy: period)
        return remainder < 0 ? remainder + period : remainder
    }

    /// `--epoch`: Unix seconds ("1767225600", "-5.5") or a UTC time "YYYY-MM-DDTHH:MM:SSZ";
    /// nil when it is neither.
    public static func epoch(parsing text: String) -> Double? {
        if let seconds = Double(text), seconds.isFinite, !text.contains("e"), !text.contains("E") { return seconds }
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}
