import SwellService
import SwellSystem

/// Decides how long a presenter waits after each frame.
///
/// Real hardware reports vblank (DRM page-flip events, FBIO_WAITFORVSYNC), and waiting for it paces
/// the loop. Virtual machines answer at once — thousands of "vblanks" a second — so after a few
/// reports closer together than a refresh period allows, the pacer switches to its own clock at
/// the mode's refresh rate (absolute deadlines with clock_nanosleep: no drift, no spinning).
/// The spacing of reports is what counts, not how long one wait took: on real hardware a frame
/// that took most of a refresh period legitimately waits only briefly for its vblank.
///
/// Events that answer at once but come round no faster than the loop itself (a frame that takes
/// 11 ms under a slow emulated CPU, at a 75 Hz mode's 13.3 ms) pass the spacing test one by one,
/// yet add up to more frames a second than the display shows (89 for 75 was measured on
/// virtio-gpu). Real vblanks cannot: any `windowLength` consecutive reports span at least that
/// many refresh periods, less two wake-up latencies at the ends. So the pacer also adds the
/// reports up in windows and takes the clock when a window is shorter than `windowShare` of its
/// periods (5 % of 16 periods is 10 ms of slack at 75 Hz, 5.6 ms at 144 Hz).
public struct FramePacer: Sendable {
    public let interval: Double
    /// True once vblank waits proved meaningless (or unavailable) and the clock paces instead.
    public private(set) var usesClock: Bool
    private var quickReports = 0
    private var lastReport: Double?
    private var windowStart: Double?
    private var windowReports = 0
    private var nextDeadline: Double?

    /// How many consecutive too-close vblank reports make the pacer give up on them.
    static let quickReportLimit = 3
    /// Consecutive reports added up for the rate test, and the least share of their refresh
    /// periods that real vblanks fill.
    public static let windowLength = 16
    static let windowShare = 0.95

    public init(refreshHz: Double, vblankAvailable: Bool) {
        interval = 1 / (refreshHz > 1 && refreshHz < 1000 ? refreshHz : 60)
        usesClock = !vblankAvailable
    }

    /// Records that a vblank was reported (a flip completed, a vsync wait returned) at `time`
    /// (monotonic seconds). Real vblanks are at least one refresh period apart (less jitter).
    public mutating func vblankReported(at time: Double) {
        guard !usesClock else { return }
        if let lastReport, time - lastReport < interval * 0.75 {
            quickReports += 1
            if quickReports >= Self.quickReportLimit { usesClock = true }
        } else {
            quickReports = 0
        }
        lastReport = time
        guard let windowStart else {
            windowStart = time
            return
        }
        windowReports += 1
        if windowReports == Self.windowLength {
            if time - windowStart < Double(Self.windowLength) * interval * Self.windowShare { usesClock = true }
            self.windowStart = time
            windowReports = 0
        }
    }

    /// Vblank waits are unavailable from now on (the ioctl failed or timed out).
    public mutating func vblankUnavailable() { usesClock = true }

    /// The absolute time the clock-paced frame after one started at `now` should wait for.
    public mutating func clockDeadline(now: Double) -> Double {
        var deadline = (nextDeadline ?? now) + interval
        // After a stall (idle time, a slow frame) start afresh rather than rushing to catch up.
        if deadline < now { deadline = now + interval }
        nextDeadline = deadline
        return deadline
    }

    /// Sleeps to the next clock deadline whatever paces the frames: a frame that is dropped (its
    /// display unplugged or powered down) has no vblank to wait for.
    public mutating func waitByClock() {
        sleepUntil(monotonic: clockDeadline(now: monotonicSeconds()))
    }

    /// Sleeps to the next clock deadline when the clock paces; returns at once otherwise.
    public mutating func waitIfClockPaced() {
        guard usesClock else { return }
        waitByClock()
    }
}
