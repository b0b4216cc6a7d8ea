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

/// The kiosk's main loop: input → content → render → present its damage, paced by the display,
/// and a clean restore whatever ends it.
///
/// While the content is animating it renders a frame per refresh (`present` paces), and the
/// presenter copies only the frame's damage. When the content says it is idle and nothing is
/// touching, the loop draws one more frame (the settled picture, in case the last one was drawn a
/// moment before the animation ended) and then sleeps in `poll` on the input devices and the
/// signal pipe — no CPU — until a touch, a hotplug, a stop signal or the content's own next
/// timer (`nextWake`) wakes it.
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

    /// Runs `content` until a stop signal, until `seconds` have passed (at least one frame is
    /// shown), or until `maximumFrames` frames were presented.
    ///
    /// - Parameters:
    ///   - screenOffAfter: seconds without a touch after which the display is powered down until
    ///     the next touch (nil: never). SIGUSR1/SIGUSR2 turn it off and on in any case.
    ///   - watch: the files whose new content `content.filesChanged` takes up (the scene file,
    ///     its pages and text files, the picture shown); the loop wakes for them like for a
    ///     touch, and draws a frame after. The content may change what it follows meanwhile.
    /// The presenter and console are restored before this returns or throws.
    public func run(
        _ content: any KioskContent,
        seconds: Double? = nil,
        maximumFrames: Int? = nil,
        screenOffAfter: Double? = nil,
        watch: FileWatch? = nil
    ) throws(KioskError) -> LoopEnd {
        defer {
            notifier?.stopping()
            restore()
        }
        let start = monotonicSeconds()
        let deadline = seconds.map { start + $0 }
        var frameNeeded = true
        // The last frame was drawn while the content was moving: one more once it is idle.
        var settling = false
        var firstShown = false
        var frames = 0
        var power = ScreenPower(offAfter: screenOffAfter, now: start)
        while true {
            if let signal = StopSignals.received { return .signal(signal) }
            // The round's one reading of the clock: input, file changes, the frame and the
            // sleep all use it.
            let now = monotonicSeconds()
            let time = now - start
            notifier?.keepAlive(now: now)
            // The first frame always goes up, even with a zero time limit.
            if let deadline, firstShown, now >= deadline { return .timeUp }
            var touched = false
            input?.poll { event in
                content.handle(event, at: time)
                frameNeeded = true
                touched = true
            }
            if let changed = watch?.drainChangedPaths(), !changed.isEmpty {
                content.filesChanged(changed, at: time)
                frameNeeded = true
            }
            if uevents?.drainDisplayChanges() == true {
                try presenter.displayChanged()
                frameNeeded = true
            }
            let request = StopSignals.takeScreenRequest()
            if let change = power.change(signal: request, touched: touched, now: now) {
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
            let idle = content.isIdle(at: time)
            // While the screen is off nothing is drawn: the content catches up when it comes back.
            if power.isOn && (frameNeeded || !idle || settling) {
                let damage = content.render(at: time, into: presenter.shadow.surface)
                try presenter.present(damage: damage)
                frameNeeded = false
                settling = !idle
                frames += 1
                if !firstShown {
                    firstShown = true
                    content.shown()
                }
                if let maximumFrames, frames >= maximumFrames { return .frameLimit }
                continue
            }
            let timeout = sleepLimit(
                content: content, time: time, now: now, power: power, deadline: deadline)
            let milliseconds = timeout.map { Int32(min($0 * 1000 + 1, 2_000_000_000)) } ?? -1
            _ = waitForReadable(
                [signalPipe] + (input?.descriptors ?? []) + (uevents.map { [$0.fd] } ?? [])
                    + (watch.map { [$0.fd] } ?? []),
                timeoutMilliseconds: milliseconds)
        }
    }

    /// How long an idle loop may sleep (nil: until a descriptor wakes it): until input needs
    /// another look, the watchdog's next keep-alive, the content's own timer, the screen's
    /// power-off or the time limit, whichever comes first.
    private func sleepLimit(
        content: any KioskContent, time: Double, now: Double, power: ScreenPower, deadline: Double?
    ) -> Double? {
        var timeout: Double? = input?.maximumSleep
        func limit(_ seconds: Double) { timeout = min(timeout ?? seconds, seconds) }
        if let keepAlive = notifier?.secondsUntilKeepAlive(now: now) { limit(keepAlive) }
        if power.isOn, let wake = content.nextWake(after: time) { limit(max(0, wake - time)) }
        if let off = power.secondsUntilOff(now: now) { limit(off) }
        if let deadline { limit(max(0, deadline - now)) }
        return timeout
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
