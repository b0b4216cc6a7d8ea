import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import SwellSystem
import Testing

/// Hours that are off between two Unix times (a schedule's "off" window, say).
struct WindowHours: ScreenHours {
    let off: ClosedRange<Double>

    func state(at unix: Double) -> (off: Bool, next: Double) {
        if unix < off.lowerBound { return (false, off.lowerBound) }
        if unix < off.upperBound { return (true, off.upperBound) }
        return (false, .infinity)
    }

    func change(off: Bool, at unix: Double) -> String { off ? "window off" : "window over" }
}

/// A presenter that records when the loop turned its screen off and on (by the fake clock).
final class PowerRecordingPresenter: Presenter {
    let display: DisplayInfo
    let rotation = Rotation.none
    let shadow = PixelBuffer(width: 4, height: 2)
    var lastCopySeconds: Double { 0 }
    var pacing: String { "test" }
    let clock: FakeClock
    private(set) var changes: [(on: Bool, wall: Double)] = []

    init(name: String, clock: FakeClock) {
        display = DisplayInfo(
            device: "test", output: name, panelWidth: 4, panelHeight: 2, refreshHz: 60, backend: "test")
        self.clock = clock
    }

    func present(damage: Damage) throws(KioskError) {}
    func displayChanged() throws(KioskError) {}
    func restore() {}

    func setScreen(on: Bool) throws(KioskError) -> Bool {
        changes.append((on, clock.wallTime()))
        return true
    }
}

@Suite(.serialized) struct ScreenHoursLoopTests {
    /// Each output has its own hours: one is off for its window and on after it, exactly at its
    /// ends (the loop sleeps until them, nothing in between); the other, with none, never changes.
    @Test func eachOutputFollowsItsOwnHours() throws {
        let clock = FakeClock(wallAtStart: 50_000)
        let first = PowerRecordingPresenter(name: "A-1", clock: clock)
        let second = PowerRecordingPresenter(name: "A-2", clock: clock)
        let loop = try KioskLoop(
            presenters: [first, second], input: nil, console: nil, notifier: nil, clock: clock, followsTheMachine: false
        )
        let still = TimedContent(clock: FakeClock(), idle: true)
        let alsoStill = TimedContent(clock: FakeClock(), idle: true)
        _ = try loop.run(
            [
                OutputContent(still, hours: WindowHours(off: 50_100...50_200)),
                OutputContent(alsoStill),
            ], seconds: 300)
        #expect(first.changes.map(\.on) == [false, true], "\(first.changes)")
        #expect(first.changes.map(\.wall) == [50_100, 50_200], "\(first.changes)")
        #expect(second.changes.isEmpty)
        // Idle content: a frame at the start, one when the screen came back on, and nothing else.
        #expect(still.times.count <= 3, "\(still.times)")
    }

    /// A kiosk that starts in an "off" window draws nothing, yet tells systemd it is up (READY=1,
    /// the window's line as its status) before any frame: else a Type=notify unit's start would
    /// time out and restart it all night.
    @Test func aKioskStartedInItsNightIsReadyWithoutAFrame() throws {
        let receiver = try DatagramReceiver(abstract: false)
        defer { receiver.close() }
        let notifier = try #require(ServiceNotifier(environment: ["NOTIFY_SOCKET": receiver.name]))
        let clock = FakeClock(wallAtStart: 50_000)
        let presenter = PowerRecordingPresenter(name: "A-1", clock: clock)
        let loop = try KioskLoop(
            presenters: [presenter], input: nil, console: nil, notifier: notifier, clock: clock,
            followsTheMachine: false)
        let still = TimedContent(clock: FakeClock(), idle: true)
        _ = try loop.run([OutputContent(still, hours: WindowHours(off: 49_000...50_100))], seconds: 50)
        #expect(still.times.isEmpty, "nothing drawn in the window")
        #expect(receiver.drain().first == "READY=1\nSTATUS=window off")
    }

    /// Night hours and a schedule's window together: off while either says off, looked at again
    /// when either may change.
    @Test func eitherHoursIsOffWhileEitherIs() {
        let both = EitherHours(WindowHours(off: 100...200), WindowHours(off: 150...300))
        #expect(both.state(at: 50) == (false, 100))
        #expect(both.state(at: 120) == (true, 150))
        #expect(both.state(at: 250) == (true, 300))
        #expect(both.state(at: 400) == (false, .infinity))
        #expect(both.change(off: true, at: 120) == "window off")
    }
}
