import SwellRaster
import SwellSystem

/// Why a loop ended.
public enum LoopEnd: Sendable, Equatable {
    /// SIGINT, SIGTERM or SIGHUP (the number).
    case signal(Int32)
    /// The time limit passed.
    case timeUp
    /// The frame limit was reached.
    case frameLimit
}

/// The kiosk's main loop: input → scene → render → present, paced by the display, and a clean
/// restore whatever ends it.
///
/// While the scene is animating it renders a frame per refresh (`present()` paces). When the scene
/// says it is idle and nothing is touching, the loop draws one more frame (the settled picture,
/// in case the last one was drawn a moment before the animation ended) and then sleeps in `poll`
/// on the input devices and the signal pipe — no CPU — until a touch, a hotplug, a stop signal
/// or the scene's own next timer (`wakeIn`) wakes it.
public final class KioskLoop {
    public let presenter: any Presenter
    public let input: InputMonitor?
    public let console: VTConsole?
    private let signalPipe: FileDescriptor
    /// Display hotplug (nil if the kernel's uevents cannot be read).
    private let uevents = UeventMonitor()
    /// systemd's notifications (nil when not run by a `Type=notify` unit): the watchdog's
    /// keep-alives come from this loop, so they stop when it stops coming round.
    public let notifier: ServiceNotifier?

    /// Installs the stop-signal handlers. Pass the presenter already opened; the console is
    /// restored together with the presenter.
    public init(
        presenter: any Presenter, input: InputMonitor?, console: VTConsole?,
        notifier: ServiceNotifier? = ServiceNotifier.current
    ) throws(KioskError) {
        self.presenter = presenter
        self.input = input
        self.console = console
        self.notifier = notifier
        signalPipe = try StopSignals.install()
        try StopSignals.installScreenSignals()
    }

    /// Runs until a stop signal, until `seconds` have passed (at least one frame is shown), or
    /// until `maximumFrames` frames were presented.
    ///
    /// - Parameters:
    ///   - render: draws the frame for `time` (seconds since the loop started) into the surface.
    ///   - handle: receives each touch event before the frame it affects is rendered.
    ///   - isIdle: whether the picture at `time` would be the same as the last one shown, so no frame is needed.
    ///   - wakeIn: while idle, the seconds until the scene moves by itself (nil: only input moves it).
    ///   - shown: called once, after the first frame is on the display.
    ///   - screenOffAfter: seconds without a touch after which the display is powered down until
    ///     the next touch (nil: never). SIGUSR1/SIGUSR2 turn it off and on in any case.
    ///   - watch: a file whose new content `fileChanged` takes up (the scene file, the picture
    ///     shown); the loop wakes for it like for a touch, and draws a frame after it.
    /// The presenter and console are restored before this returns or throws.
    public func run(
        seconds: Double? = nil,
        maximumFrames: Int? = nil,
        screenOffAfter: Double? = nil,
        watch: FileWatch? = nil,
        fileChanged: () -> Void = {},
        render: (Double, PixelSurface) -> Void,
        handle: (TouchEvent) -> Void = { _ in },
        isIdle: (Double) -> Bool = { _ in false },
        wakeIn: () -> Double? = { nil },
        shown: () -> Void = {}
    ) throws(KioskError) -> LoopEnd {
        defer {
            notifier?.stopping()
            restore()
        }
        let start = monotonicSeconds()
        let deadline = seconds.map { start + $0 }
        var frameNeeded = true
        // The last frame was drawn while the scene was moving: one more once it is idle.
        var settling = false
        var firstShown = false
        var frames = 0
        var power = ScreenPower(offAfter: screenOffAfter, now: start)
        while true {
            if let signal = StopSignals.received { return .signal(signal) }
            let now = monotonicSeconds()
            notifier?.keepAlive(now: now)
            // The first frame always goes up, even with a zero time limit.
            if let deadline, firstShown, now >= deadline { return .timeUp }
            var touched = false
            input?.poll { event in
                handle(event)
                frameNeeded = true
                touched = true
            }
            if watch?.drainChanged() == true {
                fileChanged()
                frameNeeded = true
            }
            if uevents?.drainDisplayChanges() == true {
                try presenter.displayChanged()
                frameNeeded = true
            }
            let request = StopSignals.takeScreenRequest()
            if let change = power.change(signal: request, touched: touched, now: monotonicSeconds()) {
                let made = try presenter.setScreen(on: change.on)
                power.applied(change, made: made)
                if made {
                    if change.on { frameNeeded = true }
                    kioskWarn(Self.describe(change, offAfter: screenOffAfter))
                } else {
                    kioskWarn(
                        "\(presenter.display.description) cannot be turned \(change.on ? "on" : "off"); the picture stays"
                    )
                }
            }
            let time = monotonicSeconds() - start
            let idle = isIdle(time)
            // While the screen is off nothing is drawn: the scene catches up when it comes back.
            if power.isOn && (frameNeeded || !idle || settling) {
                render(time, presenter.shadow.surface)
                try presenter.present()
                frameNeeded = false
                settling = !idle
                frames += 1
                if !firstShown {
                    firstShown = true
                    shown()
                }
                if let maximumFrames, frames >= maximumFrames { return .frameLimit }
                continue
            }
            // Idle: sleep until input, a hotplug (input or display), a signal, the scene's timer,
            // the time limit or the watchdog's next keep-alive.
            var timeout: Double? = input?.maximumSleep
            if let keepAlive = notifier?.secondsUntilKeepAlive() {
                timeout = min(timeout ?? keepAlive, keepAlive)
            }
            if power.isOn, let wake = wakeIn() {
                let left = max(0, wake)
                timeout = min(timeout ?? left, left)
            }
            if let off = power.secondsUntilOff(now: monotonicSeconds()) {
                timeout = min(timeout ?? off, off)
            }
            if let deadline {
                let left = max(0, deadline - monotonicSeconds())
                timeout = min(timeout ?? left, left)
            }
            let milliseconds = timeout.map { Int32(min($0 * 1000 + 1, 2_000_000_000)) } ?? -1
            _ = waitForReadable(
                [signalPipe] + (input?.descriptors ?? []) + (uevents.map { [$0.fd] } ?? [])
                    + (watch.map { [$0.fd] } ?? []),
                timeoutMilliseconds: milliseconds)
        }
    }

    /// The journal's line for a change of the display's power.
    static func describe(_ change: ScreenPower.Change, offAfter: Double?) -> String {
        switch (change.on, change.reason) {
        case (false, .signal): "screen off (SIGUSR1); SIGUSR2 turns it on"
        case (true, .signal): "screen on (SIGUSR2)"
        case (false, _): "screen off (no touch for \(Int((offAfter ?? 0).rounded())) s); a touch turns it on"
        case (true, _): "screen on (touch)"
        }
    }

    /// Puts the console and the display back (also done automatically when `run` ends).
    ///
    /// The console goes first, while we are still DRM master: switching the VT to text makes
    /// fbcon try to take the display back, which it can only do once no master holds the card.
    /// Restoring the CRTC ourselves (then dropping master) is what a kiosk whose seat manager keeps
    /// another fd open relies on, and this order makes the test of it honest.
    public func restore() {
        console?.restore()
        presenter.restore()
    }
}
