import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import SwellSystem
import Testing

/// A clock that only moves when the loop sleeps or a test's content says its frame took time:
/// pacing is then exact and the tests take no wall-clock time.
final class FakeClock: LoopClock {
    var time = 1000.0
    /// The wall clock (Unix time) when `time` is 1000 (nil: the real wall clock).
    var wallAtStart: Double?

    init(wallAtStart: Double? = nil) { self.wallAtStart = wallAtStart }

    func now() -> Double { time }
    func wallTime() -> Double { wallAtStart.map { $0 + time - 1000 } ?? realtimeSeconds() }

    func sleep(on descriptors: PollSet, until deadline: Double?) {
        guard let deadline else {
            Issue.record("the loop slept with nothing to wake it")
            time += 1
            return
        }
        // (a nanosecond at least, so a loop that sleeps until now still moves on)
        time = max(time + 1e-9, deadline)
    }
}

/// An output whose display can be unplugged and plugged back by the test: paced by the clock
/// like a VM's display, and counting what the loop asked of it.
final class PluggablePresenter: Presenter {
    let display: DisplayInfo
    let rotation = Rotation.none
    let shadow: PixelBuffer
    var lastCopySeconds: Double { 0 }
    var pacing: String { "test" }
    /// What the display's connector says now; the presenter learns it on `displayChanged`.
    var connected = true
    private(set) var isShowing = true
    private(set) var queuedFrames = 0
    private(set) var modesSetAgain = 0
    private var pacer: FramePacer
    private var readyAt = -Double.infinity

    init(refreshHz: Double, name: String) {
        display = DisplayInfo(
            device: "test", output: name, panelWidth: 4, panelHeight: 2, refreshHz: refreshHz, backend: "test")
        shadow = PixelBuffer(width: 4, height: 2)
        pacer = FramePacer(refreshHz: refreshHz, vblankAvailable: false)
    }

    func present(damage: Damage) throws(KioskError) { Issue.record("the loop must not block in present") }

    func queue(damage: Damage, now: Double) throws(KioskError) {
        #expect(isShowing, "no frame goes to an unplugged display")
        queuedFrames += 1
        readyAt = pacer.clockDeadline(now: now)
    }

    func frameWait(now: Double) throws(KioskError) -> FrameWait { readyAt <= now ? .ready : .at(readyAt) }

    func displayChanged() throws(KioskError) {
        if connected && !isShowing { modesSetAgain += 1 }
        isShowing = connected
    }

    func restore() {}
}

/// Content that records the loop times it was drawn at, and advances the fake clock by the
/// time its frame takes to render.
final class TimedContent: KioskContent {
    let clock: FakeClock
    let renderSeconds: Double
    let idle: Bool
    var onRender: (Int) -> Void = { _ in }
    private(set) var times: [Double] = []

    init(clock: FakeClock, renderSeconds: Double = 0, idle: Bool = false) {
        self.clock = clock
        self.renderSeconds = renderSeconds
        self.idle = idle
    }

    func render(at time: Double, into surface: PixelSurface) -> Damage {
        times.append(time)
        clock.time += renderSeconds
        onRender(times.count)
        return .whole(width: surface.width, height: surface.height)
    }

    func isIdle(at time: Double) -> Bool { idle }
}

@Suite struct MultiOutputLoopTests {
    func loop(_ presenters: [any Presenter], clock: FakeClock) throws -> KioskLoop {
        try KioskLoop(
            presenters: presenters, input: nil, console: nil, notifier: nil, clock: clock, followsTheMachine: false)
    }

    @Test func twoOutputsAtDifferentRefreshRatesEachGetTheirOwnCadence() throws {
        let clock = FakeClock()
        let fast = MemoryPresenter(panelWidth: 4, panelHeight: 2, pacedHz: 75)
        let slow = MemoryPresenter(panelWidth: 4, panelHeight: 2, pacedHz: 50)
        let a = TimedContent(clock: clock, renderSeconds: 0.002)
        let b = TimedContent(clock: clock, renderSeconds: 0.002)
        let end = try loop([fast, slow], clock: clock).run([OutputContent(a), OutputContent(b)], seconds: 1)
        #expect(end == .timeUp)
        // One second: 75 and 50 frames (the first at 0, a refresh apart).
        #expect(
            (75...76).contains(a.times.count) && (50...51).contains(b.times.count), "\(a.times.count) \(b.times.count)")
        let aGaps = zip(a.times, a.times.dropFirst()).map { $1 - $0 }
        let bGaps = zip(b.times, b.times.dropFirst()).map { $1 - $0 }
        #expect(aGaps.allSatisfy { abs($0 - 1.0 / 75) < 0.0025 }, "\(aGaps)")
        #expect(bGaps.allSatisfy { abs($0 - 1.0 / 50) < 0.0025 }, "\(bGaps)")
        #expect(fast.presentedFrames == a.times.count && slow.presentedFrames == b.times.count)
    }

    @Test func anIdleOutputRendersNothingWhileTheOtherAnimates() throws {
        let clock = FakeClock()
        let moving = TimedContent(clock: clock, renderSeconds: 0.001)
        let still = TimedContent(clock: clock, renderSeconds: 0.001, idle: true)
        let presenters = [
            MemoryPresenter(panelWidth: 4, panelHeight: 2, pacedHz: 60),
            MemoryPresenter(panelWidth: 4, panelHeight: 2, pacedHz: 60),
        ]
        let loop = try loop(presenters, clock: clock)
        _ = try loop.run([OutputContent(moving), OutputContent(still)], seconds: 2)
        #expect(still.times.count == 1, "only its first frame: \(still.times)")
        #expect((120...121).contains(moving.times.count), "\(moving.times.count)")
        #expect(loop.framesShown == [moving.times.count, 1])
    }

    @Test func aSlowOutputDoesNotStarveTheOtherWhileTheCPUHasRoom() throws {
        // 75 frames of 4 ms and 50 of 12 ms a second: 900 ms of rendering, one thread. Each
        // output holds its own rate; drawn in lockstep (each round waiting for both displays),
        // the fast one would fall to the slow one's rate.
        let clock = FakeClock()
        let quick = TimedContent(clock: clock, renderSeconds: 0.004)
        let heavy = TimedContent(clock: clock, renderSeconds: 0.012)
        let presenters = [
            MemoryPresenter(panelWidth: 4, panelHeight: 2, pacedHz: 75),
            MemoryPresenter(panelWidth: 4, panelHeight: 2, pacedHz: 50),
        ]
        _ = try loop(presenters, clock: clock).run([OutputContent(quick), OutputContent(heavy)], seconds: 2)
        #expect(quick.times.count >= 149, "75 Hz output: \(quick.times.count) frames in 2 s")
        #expect(heavy.times.count >= 99, "50 Hz output: \(heavy.times.count) frames in 2 s")
        // No frame of the quick one is more than a refresh late.
        let gaps = zip(quick.times, quick.times.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 < 2.0 / 75 }, "\(gaps.max() ?? 0)")
    }

    @Test func unpluggingOneOutputLeavesTheOtherRunningAndReplugShowsItAgain() throws {
        let clock = FakeClock()
        let first = PluggablePresenter(refreshHz: 60, name: "A")
        let second = PluggablePresenter(refreshHz: 60, name: "B")
        let a = TimedContent(clock: clock, renderSeconds: 0.001)
        let b = TimedContent(clock: clock, renderSeconds: 0.001)
        let loop = try loop([first, second], clock: clock)
        // B's display goes at A's 20th frame and comes back at its 80th (a hotplug each time).
        var unplugged = 0.0
        var replugged = 0.0
        a.onRender = { frame in
            if frame == 20 {
                second.connected = false
                unplugged = clock.time
                loop.noteDisplayChange()
            } else if frame == 80 {
                second.connected = true
                replugged = clock.time
                loop.noteDisplayChange()
            }
        }
        _ = try loop.run([OutputContent(a), OutputContent(b)], seconds: 2)
        #expect((120...121).contains(a.times.count), "A keeps its rate: \(a.times.count)")
        let start = 1000.0
        let whileAway = b.times.filter { $0 > unplugged - start && $0 < replugged - start }
        #expect(whileAway.isEmpty, "B draws nothing while unplugged: \(whileAway)")
        #expect(b.times.contains { $0 > replugged - start }, "B is drawn again once back")
        #expect(second.modesSetAgain == 1 && first.modesSetAgain == 0)
        #expect(first.queuedFrames == a.times.count && second.queuedFrames == b.times.count)
        // B's frames after the replug run at its rate again, to the end.
        #expect(b.times.filter { $0 > replugged - start }.count >= 119 - 80)
    }

    @Test func theTimeLimitWaitsForEveryOutputsFirstFrame() throws {
        let clock = FakeClock()
        let a = TimedContent(clock: clock, renderSeconds: 0.3, idle: true)
        let b = TimedContent(clock: clock, renderSeconds: 0.3, idle: true)
        let presenters = [
            MemoryPresenter(panelWidth: 4, panelHeight: 2), MemoryPresenter(panelWidth: 4, panelHeight: 2),
        ]
        let end = try loop(presenters, clock: clock).run([OutputContent(a), OutputContent(b)], seconds: 0.1)
        #expect(end == .timeUp)
        #expect(a.times.count == 1 && b.times.count == 1)
    }
}
