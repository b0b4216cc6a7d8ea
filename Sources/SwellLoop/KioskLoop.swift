import SwellDisplay
import SwellInput
import SwellRaster
import SwellService
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

/// What one output shows: its content, and the files that content follows (`FileWatch`: the
/// content may change what it follows, so each output has its own).
public struct OutputContent {
    public var content: any KioskContent
    public var watch: FileWatch?
    /// When this output's screen is off by the clock (nil: the loop's night hours, if any).
    public var hours: (any ScreenHours)?

    public init(_ content: any KioskContent, watch: FileWatch? = nil, hours: (any ScreenHours)? = nil) {
        self.content = content
        self.watch = watch
        self.hours = hours
    }
}

/// Outputs of a loop by index (bit n: output n), for touch routing; at most 64.
public struct OutputSet: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func output(_ index: Int) -> OutputSet { OutputSet(rawValue: 1 << UInt64(index)) }
    public func contains(output index: Int) -> Bool { rawValue & (1 << UInt64(index)) != 0 }
}

/// The loop's clock and its sleep, replaceable in tests: a fake clock makes pacing tests exact
/// and quick, and no test asserts on wall-clock time.
public protocol LoopClock: AnyObject {
    /// Monotonic seconds.
    func now() -> Double
    /// Sleeps until one of `descriptors` is readable, a signal arrives, or the clock reads
    /// `deadline` (nil: no limit).
    func sleep(on descriptors: PollSet, until deadline: Double?)
    /// Unix seconds (CLOCK_REALTIME): only for what is said in wall-clock time, night hours.
    func wallTime() -> Double
}

extension LoopClock {
    public func wallTime() -> Double { realtimeSeconds() }
}

/// CLOCK_MONOTONIC and poll(2).
public final class SystemLoopClock: LoopClock {
    public init() {}
    public func now() -> Double { monotonicSeconds() }
    public func sleep(on descriptors: PollSet, until deadline: Double?) {
        let milliseconds = deadline.map { deadline in
            Int32(min(max(0, deadline - monotonicSeconds()) * 1000 + 1, 2_000_000_000))
        }
        descriptors.wait(timeoutMilliseconds: milliseconds ?? -1)
    }
}

/// The kiosk's main loop: input → content → render → present its damage, on one output or
/// several, paced by each display, and a clean restore whatever ends it.
///
/// Every output (a presenter and its content) keeps its own state: whether it needs a frame,
/// whether it is settling, its screen power and its pacing. While an output's content is
/// animating it gets a frame per refresh of its own display, and the presenter copies only the
/// frame's damage. When the content says it is idle and nothing is touching it, the loop draws
/// one more frame (the settled picture, in case the last one was drawn a moment before the
/// animation ended) and then draws nothing for it. When no output wants a frame now the loop
/// sleeps in `poll` on the input devices, the signal pipe, the hotplug socket, the followed
/// files and the pending page flips — no CPU — until one of them, a clock-paced display's next
/// refresh or a content's own next timer (`nextWake`) wakes it.
///
/// Several outputs share one thread (and each content's render threads, which take the cores):
/// presenting only queues a frame (`Presenter.queue`), so no output waits for another's flip,
/// and of the outputs ready for a frame the one whose next refresh comes first is drawn first.
public final class KioskLoop {
    /// The outputs, in the order `run` pairs them with contents.
    public let presenters: [any Presenter]
    public let input: InputMonitor?
    public let console: VTConsole?
    private let signalPipe: FileDescriptor
    /// Display hotplug (nil if the kernel's uevents cannot be read, or not followed).
    private let uevents: UeventMonitor?
    /// The wall clock being set (NTP's first step after booting in the past): the hours and
    /// schedules, which sleep until a wall-clock time, look again (nil: not followed).
    private let clockSteps: WallClockSteps?
    /// systemd's notifications (nil when not run by a `Type=notify` unit): the watchdog's
    /// keep-alives come from this loop, so they stop when it stops coming round.
    public let notifier: ServiceNotifier?
    private let clock: any LoopClock
    /// What the loop sleeps on, gathered each round (its storage is kept).
    private let pollSet = PollSet()
    private var displayChangePending = false
    /// Frames presented on each output by the last `run`.
    public private(set) var framesShown: [Int] = []
    /// Each output as other threads see it (its presented frame, frame times, power).
    public let monitors: [OutputMonitor]
    /// Work other threads hand the loop (the management API); nil: none.
    public var mailbox: LoopMailbox?
    /// When `run` started (the loop's clock): its contents' time 0.
    private var runStart = 0.0
    /// The contents' time now (seconds since `run` started), for the mailbox's work.
    public var contentTime: Double { clock.now() - runStart }
    /// The outputs' states while `run` runs (for the mailbox's work).
    private var running: [OutputState] = []

    /// Which outputs a touch reaches. This is the seam for touch routing (`--touch
    /// DEVICE=OUTPUT`, a span's canvas): replace it before `run`. Default: the first output,
    /// whose panel the input's `ScreenMapping` describes.
    public var routeTouch: (TouchEvent) -> OutputSet = { _ in .output(0) }

    /// The first output (the only one of a single-output loop).
    public var presenter: any Presenter { presenters[0] }

    /// Installs the stop-signal handlers. Pass the presenters already opened; the console is
    /// restored together with them. `followsTheMachine`: display hotplug (the kernel's uevents)
    /// and steps of the wall clock draw a frame, as a kiosk's must; a test that counts frames
    /// turns it off, since a uevent burst or a virtual machine's clock being set anywhere on the
    /// machine would add one.
    public init(
        presenters: [any Presenter], input: InputMonitor?, console: VTConsole?,
        notifier: ServiceNotifier? = ServiceNotifier.current, clock: any LoopClock = SystemLoopClock(),
        followsTheMachine: Bool = true
    ) throws(KioskError) {
        precondition(!presenters.isEmpty && presenters.count <= 64, "1 to 64 outputs")
        uevents = followsTheMachine ? UeventMonitor() : nil
        clockSteps = followsTheMachine ? WallClockSteps.open() : nil
        self.presenters = presenters
        self.input = input
        self.console = console
        self.notifier = notifier
        self.clock = clock
        monitors = presenters.map { _ in OutputMonitor() }
        signalPipe = try StopSignals.install()
        try StopSignals.installScreenSignals()
    }

    deinit { clockSteps?.close() }

    /// One output.
    public convenience init(
        presenter: any Presenter, input: InputMonitor?, console: VTConsole?,
        notifier: ServiceNotifier? = ServiceNotifier.current, followsTheMachine: Bool = true
    ) throws(KioskError) {
        try self.init(
            presenters: [presenter], input: input, console: console, notifier: notifier,
            followsTheMachine: followsTheMachine)
    }

    /// Runs `content` on the one output until a stop signal, until `seconds` have passed (at
    /// least one frame is shown), or until `maximumFrames` frames were presented.
    ///
    /// - Parameters:
    ///   - screenOffAfter: seconds without a touch after which the display is powered down until
    ///     the next touch (nil: never). SIGUSR1/SIGUSR2 turn it off and on in any case.
    ///   - offHours: the display is off every night between these local times (nil: never).
    ///   - watch: the files whose new content `content.filesChanged` takes up (the scene file,
    ///     its pages and text files, the picture shown); the loop wakes for them like for a
    ///     touch, and draws a frame after. The content may change what it follows meanwhile.
    /// The presenter and console are restored before this returns or throws.
    public func run(
        _ content: any KioskContent,
        seconds: Double? = nil,
        maximumFrames: Int? = nil,
        screenOffAfter: Double? = nil,
        offHours: OffHours? = nil,
        watch: FileWatch? = nil
    ) throws(KioskError) -> LoopEnd {
        try run(
            [OutputContent(content, watch: watch)], seconds: seconds, maximumFrames: maximumFrames,
            screenOffAfter: screenOffAfter, offHours: offHours)
    }

    /// Runs one content per presenter (in order) until a stop signal, until `seconds` have
    /// passed (every output showing at least one frame), or until every output presented
    /// `maximumFrames` frames. `screenOffAfter` counts for each output on its own touches;
    /// SIGUSR1/SIGUSR2 turn all of them off and on, and `offHours` every output without hours of
    /// its own (`OutputContent.hours`). The presenters and the console are restored before this
    /// returns or throws.
    public func run(
        _ outputs: [OutputContent], seconds: Double? = nil, maximumFrames: Int? = nil,
        screenOffAfter: Double? = nil, offHours: OffHours? = nil
    ) throws(KioskError) -> LoopEnd {
        precondition(outputs.count == presenters.count, "one content per presenter")
        defer {
            notifier?.stopping()
            restore()
        }
        let start = clock.now()
        runStart = start
        let deadline = seconds.map { start + $0 }
        let states = outputs.indices.map { index in
            OutputState(
                index: index, presenters[index], outputs[index],
                power: ScreenPower(offAfter: screenOffAfter, now: start), hours: outputs[index].hours ?? offHours)
        }
        framesShown = states.map(\.frames)
        running = states
        defer { running = [] }
        while true {
            if let signal = StopSignals.received { return .signal(signal) }
            // The round's one reading of the clock: input, file changes, the frame and the
            // sleep all use it.
            let now = clock.now()
            let time = now - start
            notifier?.keepAlive(now: now)
            // The first frame always goes up, even with a zero time limit.
            if let deadline, now >= deadline, states.allSatisfy(\.hasStarted) { return .timeUp }
            try takeEvents(states, time: time, now: now, offAfter: screenOffAfter)
            if let next = try pickOutput(states, time: time, now: now) {
                try draw(next, time: time)
                if let maximumFrames, states.allSatisfy({ $0.frames >= maximumFrames }) { return .frameLimit }
                continue
            }
            sleep(states, time: time, now: now, deadline: deadline)
        }
    }

    /// Makes the next round look at every display again, as a hotplug uevent does (for tests and
    /// for callers with news of their own).
    public func noteDisplayChange() { displayChangePending = true }

    /// Turns the screen of output `index` (nil: every output) on or off at this round, as
    /// SIGUSR1/SIGUSR2 do (a screen turned off so stays off for touches); from the mailbox's work.
    /// The indices it applies to.
    public func requestScreen(on: Bool, output index: Int?) -> [Int] {
        let chosen = running.indices.filter { index == nil || $0 == index }
        for chosenIndex in chosen { running[chosenIndex].requested = on }
        return chosen
    }

    /// Whether output `index`'s screen is on (during `run`).
    public func screenIsOn(output index: Int) -> Bool {
        running.indices.contains(index) ? running[index].power.isOn : true
    }

    /// Input (routed to its outputs), changed files, hotplug and screen-power requests.
    private func takeEvents(_ states: [OutputState], time: Double, now: Double, offAfter: Double?) throws(KioskError) {
        for state in states { state.touched = false }
        mailbox?.runPosted(self)
        input?.poll { event in
            let targets = routeTouch(event)
            for (index, state) in states.enumerated() where targets.contains(output: index) {
                state.content.handle(event, at: time)
                state.frameNeeded = true
                state.touched = true
            }
        }
        for state in states {
            if let changed = state.watch?.drainChangedPaths(), !changed.isEmpty {
                state.content.filesChanged(changed, at: time)
                state.frameNeeded = true
                // A changed file may change the hours (a schedule's): look again.
                state.hoursState = nil
            }
        }
        if uevents?.drainDisplayChanges() == true || displayChangePending {
            displayChangePending = false
            // Each output re-reads its own connector: one unplugged leaves the others as they are.
            for state in states {
                try state.presenter.displayChanged()
                state.frameNeeded = true
            }
        }
        if clockSteps?.takeStep() == true {
            // Each content sees the new wall time on its own (`ScheduledContent` looks again
            // when the clock passed its change or went back); the hours are asked again.
            for state in states {
                state.hoursState = nil
                state.frameNeeded = true
            }
        }
        let request = StopSignals.takeScreenRequest()
        let wall = states.contains { $0.hours != nil } ? clock.wallTime() : 0
        for state in states {
            let requested = state.requested
            state.requested = nil
            try applyPower(
                state, request: requested ?? request, fromAPI: requested != nil, night: state.hoursOff(at: wall),
                now: now, offAfter: offAfter, named: states.count > 1)
        }
    }

    private func applyPower(
        _ state: OutputState, request: Bool?, fromAPI: Bool, night: Bool?, now: Double, offAfter: Double?,
        named: Bool
    ) throws(KioskError) {
        guard let change = state.power.change(signal: request, touched: state.touched, hoursOff: night, now: now)
        else { return }
        let presenter = state.presenter
        let made = try presenter.setScreen(on: change.on)
        state.power.applied(change, made: made)
        let prefix = named ? presenter.display.output + ": " : ""
        if made {
            if change.on { state.frameNeeded = true }
            monitors[state.index].setScreen(on: change.on)
            let line =
                change.reason == .hours
                ? state.hours?.change(off: !change.on, at: clock.wallTime()) ?? ""
                : fromAPI
                    ? "screen \(change.on ? "on" : "off") (the management API)"
                    : Self.describe(change, offAfter: offAfter)
            kioskWarn(prefix + line)
            // A kiosk started in its night (or a schedule's "off" window) draws nothing until
            // morning, yet it is up: systemd must hear so now, or a Type=notify unit's start
            // times out and the kiosk is restarted all night.
            if !change.on && !state.firstShown { notifier?.ready(status: prefix + line) }
        } else {
            kioskWarn(
                "\(presenter.display.description) cannot be turned \(change.on ? "on" : "off"); the picture stays")
        }
    }

    /// The output to draw now: of those whose display is ready for a frame and that want one,
    /// the one whose next refresh (a refresh after it became ready) comes first. Records each
    /// output's wait for `sleep`.
    private func pickOutput(_ states: [OutputState], time: Double, now: Double) throws(KioskError) -> OutputState? {
        var next: OutputState?
        var nextDue = Double.infinity
        for state in states {
            state.wait = try state.presenter.frameWait(now: now)
            // While the screen is off or unplugged nothing is drawn: the content catches up when
            // it comes back.
            state.idle = state.content.isIdle(at: time)
            state.wantsFrame =
                state.power.isOn && state.presenter.isShowing && (state.frameNeeded || !state.idle || state.settling)
            guard state.wait == .ready else {
                state.readySince = nil
                continue
            }
            let since = state.readySince ?? now
            state.readySince = since
            let due = since + 1 / max(state.presenter.display.refreshHz, 1)
            if state.wantsFrame && due < nextDue {
                next = state
                nextDue = due
            }
        }
        return next
    }

    private func draw(_ state: OutputState, time: Double) throws(KioskError) {
        let started = monotonicSeconds()
        let damage = state.content.render(at: time, into: state.presenter.shadow.surface)
        try state.presenter.queue(damage: damage, now: clock.now())
        let ended = monotonicSeconds()
        monitors[state.index].record(end: ended, milliseconds: (ended - started) * 1000)
        state.frameNeeded = false
        state.settling = !state.idle
        state.readySince = nil
        state.frames += 1
        framesShown[state.index] = state.frames
        if !state.firstShown {
            state.firstShown = true
            state.content.shown()
        }
    }

    /// Sleeps until a descriptor wakes the loop or the earliest of: a pending flip's timeout, a
    /// clock-paced output's next refresh, an idle content's own timer, a screen's power-off, the
    /// input's next look, the watchdog's keep-alive and the time limit.
    private func sleep(_ states: [OutputState], time: Double, now: Double, deadline: Double?) {
        var wake = deadline
        func limit(_ at: Double) { wake = min(wake ?? at, at) }
        pollSet.removeAll()
        pollSet.add(signalPipe)
        input?.addDescriptors(to: pollSet)
        if let uevents { pollSet.add(uevents.fd) }
        if let clockSteps { pollSet.add(clockSteps.fd) }
        if let mailbox { pollSet.add(mailbox.signal.fd) }
        if let seconds = input?.maximumSleep { limit(now + seconds) }
        if let keepAlive = notifier?.secondsUntilKeepAlive(now: now) { limit(now + keepAlive) }
        for state in states {
            if let hours = state.hoursState { limit(now + max(0, hours.next - clock.wallTime())) }
            if let watch = state.watch { pollSet.add(watch.fd) }
            switch state.wait {
            case .flip(let descriptor, let flipDeadline):
                // Also for an output that wants no frame: its flip must finish (DirtyFB).
                pollSet.add(descriptor)
                limit(flipDeadline)
            case .at(let ready) where state.wantsFrame:
                limit(ready)
            default:
                break
            }
            if state.power.isOn, !state.wantsFrame, let wakeTime = state.content.nextWake(after: time) {
                limit(now + max(0, wakeTime - time))
            }
            if let off = state.power.secondsUntilOff(now: now) { limit(now + off) }
        }
        clock.sleep(on: pollSet, until: wake)
    }

    /// The journal's line for a change of the display's power (the hours say their own).
    static func describe(_ change: ScreenPower.Change, offAfter: Double?) -> String {
        switch (change.on, change.reason) {
        case (false, .signal): "screen off (SIGUSR1); SIGUSR2 turns it on"
        case (true, .signal): "screen on (SIGUSR2)"
        case (false, _): "screen off (no touch for \(Int((offAfter ?? 0).rounded())) s); a touch turns it on"
        case (true, _): "screen on (touch)"
        }
    }

    /// Puts the console and the displays back (also done automatically when `run` ends).
    ///
    /// The console goes first, while we are still DRM master: switching the VT to text makes
    /// fbcon try to take the display back, which it can only do once no master holds the card.
    /// Restoring the CRTCs ourselves (then dropping master with the last) is what a kiosk whose
    /// seat manager keeps another fd open relies on, and this order makes the test of it honest.
    public func restore() {
        console?.restore()
        for presenter in presenters.reversed() { presenter.restore() }
    }
}

/// One output's state in a run of the loop.
private final class OutputState {
    let index: Int
    let presenter: any Presenter
    let content: any KioskContent
    let watch: FileWatch?
    var power: ScreenPower
    /// When its screen is off by the clock (nil: never), and what they said at the last look.
    let hours: (any ScreenHours)?
    var hoursState: (off: Bool, next: Double, lookedAt: Double)?
    /// Input, a file change, a hotplug or the screen coming on since its last frame.
    var frameNeeded = true
    /// The last frame was drawn while the content was moving: one more once it is idle.
    var settling = false
    var firstShown = false
    var frames = 0
    var touched = false
    /// The screen power the management API asked for, taken up this round.
    var requested: Bool?
    /// This round's look: what its display waits for, whether its content is idle, and whether
    /// it wants a frame.
    var wait = FrameWait.ready
    var idle = false
    var wantsFrame = true
    /// When the loop first saw its display ready for the next frame (about its refresh).
    var readySince: Double?

    init(index: Int, _ presenter: any Presenter, _ output: OutputContent, power: ScreenPower, hours: (any ScreenHours)?)
    {
        self.index = index
        self.presenter = presenter
        content = output.content
        watch = output.watch
        self.power = power
        self.hours = hours
    }

    /// Whether the hours say off at Unix time `wall` (nil without hours). They are asked again
    /// only at the change they foretold, when the wall clock was set back, or after a file change.
    func hoursOff(at wall: Double) -> Bool? {
        guard let hours else { return nil }
        if let known = hoursState, wall < known.next, wall >= known.lookedAt { return known.off }
        let state = hours.state(at: wall)
        hoursState = (state.off, state.next, wall)
        return state.off
    }

    /// Its first frame is up, or it cannot be now (screen off, display unplugged): the time
    /// limit may end the loop.
    var hasStarted: Bool { firstShown || !power.isOn || !presenter.isShowing }
}
