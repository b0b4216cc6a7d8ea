import Glibc
import SwellSystem

/// The wall clock a scene reads: scene time (monotonic, 0 at the start) plus the Unix time at
/// scene time 0, shown in a time zone. Injected, so that a test at a fixed time and zone is
/// deterministic.
public struct WallClock: Sendable {
    /// Unix time (s) at scene time 0.
    public var epochAtZero: Double
    /// A fixed offset from UTC (s), or nil for the process's local zone (TZ, /etc/localtime).
    public var fixedOffset: Int?

    public init(epochAtZero: Double, fixedOffset: Int?) {
        self.epochAtZero = epochAtZero
        self.fixedOffset = fixedOffset
    }

    /// Now, in the local zone: CLOCK_REALTIME read once, at the scene's start.
    public static func system() -> WallClock {
        WallClock(epochAtZero: realtimeSeconds(), fixedOffset: nil)
    }

    /// 2026-01-01 12:00:00 UTC at scene time 0, in UTC: what `swell dump` shows, so a dump of
    /// a page with a clock writes the same bytes on every run.
    public static let dumpClock = WallClock(epochAtZero: 1_767_268_800, fixedOffset: 0)

    /// Unix time at scene time `time`.
    public func seconds(at time: Double) -> Double { epochAtZero + time }

    /// The zone's offset from UTC (s) at scene time `time`.
    public func utcOffset(at time: Double) -> Double {
        if let fixedOffset { return Double(fixedOffset) }
        return Double(localTime(unixSeconds: Int(seconds(at: time).rounded(.down))).tm_gmtoff)
    }

    /// The broken-down local time at Unix time `unix`.
    func parts(_ unix: Double) -> tm {
        guard let fixedOffset else { return localTime(unixSeconds: Int(unix.rounded(.down))) }
        var parts = tm()
        var t = time_t(unix.rounded(.down)) + time_t(fixedOffset)
        gmtime_r(&t, &parts)
        parts.tm_gmtoff = fixedOffset
        return parts
    }
}

/// A strftime format, and whether what it shows changes every second or every minute.
struct ClockFormat: Sendable {
    let format: String
    let showsSeconds: Bool

    /// Conversions that show seconds: %S, %T, %s, %r, %c.
    init(_ format: String) {
        self.format = format
        var seconds = false
        var it = format.makeIterator()
        while let c = it.next() {
            guard c == "%", let d = it.next() else { continue }
            if "STsrc".contains(d) { seconds = true }
        }
        showsSeconds = seconds
    }

    func string(_ unix: Double, _ clock: WallClock) -> String {
        var parts = clock.parts(unix)
        var bytes = [CChar](repeating: 0, count: 256)
        let count = strftime(&bytes, bytes.count, format, &parts)
        return String(decoding: bytes.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
