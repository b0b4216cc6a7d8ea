/// Decides how long a presenter waits after each frame.
///
/// Real hardware reports vblank (DRM page-flip events, FBIO_WAITFORVSYNC), and waiting for it paces
/// the loop. Virtual machines answer at once — thousands of "vblanks" a second — so after a few
/// waits that returned far sooner than a refresh period, the pacer switches to its own clock at
/// the mode's refresh rate (absolute deadlines with clock_nanosleep: no drift, no spinning).
public struct FramePacer: Sendable {
    public let interval: Double
    /// True once vblank waits proved meaningless (or unavailable) and the clock paces instead.
    public private(set) var usesClock: Bool
    private var quickWaits = 0
    private var nextDeadline: Double?

    /// How many consecutive too-quick vblank waits make the pacer give up on them.
    static let quickWaitLimit = 3

    public init(refreshHz: Double, vblankAvailable: Bool) {
        interval = 1 / (refreshHz > 1 && refreshHz < 1000 ? refreshHz : 60)
        usesClock = !vblankAvailable
    }

    /// Records how long a vblank wait took, in seconds.
    public mutating func vblankWaitTook(_ seconds: Double) {
        guard !usesClock else { return }
        if seconds < interval / 4 {
            quickWaits += 1
            if quickWaits >= Self.quickWaitLimit { usesClock = true }
        } else {
            quickWaits = 0
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

    /// Sleeps to the next clock deadline when the clock paces; returns at once otherwise.
    public mutating func waitIfClockPaced() {
        guard usesClock else { return }
        sleepUntil(monotonic: clockDeadline(now: monotonicSeconds()))
    }
}
