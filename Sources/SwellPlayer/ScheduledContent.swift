import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import SwellSystem

/// An output's content as its schedule chooses it: a scene shown by `SceneContent`, changed at
/// each of the schedule's changes, and the screen's hours (`ScreenHours`: the loop powers the
/// output off for an "off" window). The wall clock is read once a round, and the schedule is
/// asked again only at the change it foretold (`Schedule.Decision.until`) or when the clock was
/// set back, so a kiosk between two changes costs nothing: `nextWake` wakes the loop at the
/// change, not before.
///
/// A content taken up mid-window is dated from the window's start (`SceneContent.dateScene`): a
/// playlist shows the item it would had it run since then, as `swell dump --at` renders it.
public final class ScheduledContent: KioskContent, ScreenHours {
    public let scene: SceneContent
    public private(set) var schedule: Schedule
    /// The connector the schedule's rules name this output by (nil: a kiosk of one output).
    public let output: String?
    /// What the output shows where no rule applies and the schedule has no default.
    public private(set) var ownContent: String
    /// The rule in force at the last look (nil: none, the output's own content), and until when
    /// (Unix time) it holds.
    public private(set) var decision: Schedule.Decision?
    private var lookedAt = -Double.infinity
    /// When the window whose content is shown began (Unix time).
    private var shownSince = -Double.infinity
    private var until = -Double.infinity
    private let wallTime: () -> Double
    private let journal: (String) -> Void
    /// "HDMI-A-1: " on a kiosk of several outputs.
    private let prefix: String

    /// `scene` shows what `schedule` chooses for `output` now (`initialContent`); `wallTime` reads
    /// Unix seconds (CLOCK_REALTIME; a fake one in tests).
    public init(
        scene: SceneContent, schedule: Schedule, output: String?, ownContent: String, prefix: String = "",
        wallTime: @escaping () -> Double = realtimeSeconds, journal: @escaping (String) -> Void = kioskWarn
    ) {
        self.scene = scene
        self.schedule = schedule
        self.output = output
        self.ownContent = ownContent
        self.prefix = prefix
        self.wallTime = wallTime
        self.journal = journal
        let wall = wallTime()
        let now = Self.look(schedule, output, at: wall)
        decision = now.decision
        until = now.until
        lookedAt = wall
        shownSince = now.since
        scene.dateScene(from: -(wall - now.since), unix: now.since)
    }

    /// The file `schedule` has `output` show at `unix` (for a window that turns the screen off:
    /// what shows when someone turns it on, the schedule's default or the output's own content).
    public static func content(
        of decision: Schedule.Decision?, schedule: Schedule, ownContent: String
    ) -> String {
        if case .file(let file)? = decision?.content { return file }
        if case .file(let file)? = schedule.defaultContent { return file }
        return ownContent
    }

    /// The decision at `unix` (nil: no rule and no default, the output's own content), when it
    /// began and when the next change comes (Unix times; looking no further than the schedule's
    /// horizon either way).
    public static func look(_ schedule: Schedule, _ output: String?, at unix: Double) -> (
        decision: Schedule.Decision?, since: Double, until: Double
    ) {
        if let decision = schedule.decision(for: output, at: unix) {
            return (decision, decision.since, decision.until)
        }
        let horizon = Schedule.horizon
        let last = schedule.changes(for: output, from: unix - horizon, to: unix).last { $0.at <= unix }
        let next = schedule.changes(for: output, from: unix, to: unix + horizon).first { $0.at > unix }
        return (nil, last?.at ?? unix - horizon, next?.at ?? unix + horizon)
    }

    /// When (Unix time) the schedule's next change comes, as of the last look.
    public var nextChange: Double { until }

    /// Shows the schedule's choice again at the next round, even within the same window (after
    /// something else was shown in its place: `ManagedContent`).
    public func resume() {
        until = -Double.infinity
        shownSince = -Double.infinity
    }

    /// A new schedule (the kiosk file changed): taken up at the next round.
    public func use(_ schedule: Schedule, ownContent: String) {
        self.schedule = schedule
        self.ownContent = ownContent
        until = -Double.infinity
    }

    /// Takes up the schedule's change if one came (at loop time `time`). A new window starts its
    /// content afresh, dated from the window's start, even when it shows the same file.
    private func takeUpChange(at time: Double) {
        let wall = wallTime()
        guard wall >= until || wall < lookedAt else { return }
        let now = Self.look(schedule, output, at: wall)
        lookedAt = wall
        until = now.until
        decision = now.decision
        let file = Self.content(of: now.decision, schedule: schedule, ownContent: ownContent)
        guard file != scene.name || now.since != shownSince else { return }
        do {
            try scene.show(file, at: time, startedAt: (loop: time - (wall - now.since), unix: now.since))
        } catch {
            journal(prefix + "the schedule's \(file) was not loaded (\(scene.name) goes on): \(error)")
            return
        }
        shownSince = now.since
        if now.decision?.content != .off { journal(prefix + "shows \(file) (\(Self.why(now.decision, at: wall)))") }
    }

    /// "rule "lunch" until 2026-12-24 14:30", "the default", or "no rule applies".
    static func why(_ decision: Schedule.Decision?, at unix: Double) -> String {
        guard let decision else { return "no rule applies" }
        let rule = decision.rule.map { "rule \"\($0)\"" } ?? "the default"
        // A change beyond the schedule's horizon is only where it stopped looking: no end to say.
        guard decision.until < unix + Schedule.horizon else { return rule }
        return rule + " until " + clockText(decision.until)
    }

    /// "2026-12-24 14:30", local time.
    static func clockText(_ unix: Double) -> String {
        let local = LocalTime(unixSeconds: unix)
        return "\(local.date) \(OffHours.clockText(local.minuteOfDay))"
    }

    // MARK: KioskContent

    public func render(at time: Double, into surface: PixelSurface) -> Damage {
        takeUpChange(at: time)
        return scene.render(at: time, into: surface)
    }

    public func handle(_ touch: TouchEvent, at time: Double) { scene.handle(touch, at: time) }

    public func isIdle(at time: Double) -> Bool {
        takeUpChange(at: time)
        return scene.isIdle(at: time)
    }

    public func nextWake(after time: Double) -> Double? {
        let change = time + max(0, until - wallTime())
        return min(scene.nextWake(after: time) ?? change, change)
    }

    public func filesChanged(_ paths: [String], at time: Double) { scene.filesChanged(paths, at: time) }

    public func shown() { scene.shown() }

    // MARK: ScreenHours

    public func state(at unix: Double) -> (off: Bool, next: Double) {
        let now = Self.look(schedule, output, at: unix)
        return (now.decision?.content == .off, now.until)
    }

    public func change(off: Bool, at unix: Double) -> String {
        if off {
            let now = Self.look(schedule, output, at: unix)
            return "screen off (the schedule: \(Self.why(now.decision, at: unix))); SIGUSR2 turns it on"
        }
        return "screen on (the schedule's off window is over)"
    }
}
