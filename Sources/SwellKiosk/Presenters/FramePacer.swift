/// Decides how long a presenter waits after each frame.
///
/// Real hardware reports vblank (DRM page-flip events, FBIO_WAITFORVSYNC), and waiting for it paces
/// the loop. Virtual machines answer at once — thousands of "vblanks" a second — so after a few
/// reports closer together than a refresh period allows, the pacer switches to its own clock at
/// the mode's refresh rate (absolute deadlines with clock_nanosleep: no drift, no spinning).
/// The spacing of reports is what counts, not how long one wait took: on real hardware a frame
/// that took most of a refresh period legitimately waits only briefly for its vblank.
public struct FramePacer: Sendable {
    public let interval: Double
    /// True once vblank waits proved meaningless (or unavailable) and the clock paces instead.
    public private(set) var usesClock: Bool
    private var quickReports = 0
    private var lastReport: Double?
    private var nextDeadline: Double?

    /// How many consecutive too-close vblank reports make the pacer give up on them.
    static let quickReportLimit = 3

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
