import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

/// The realtime scene clock with injected readings: in step with CLOCK_REALTIME − epoch, wrapped
/// to the period, and what it does when the realtime clock steps (see RealtimeSceneClock.swift).
@Suite struct RealtimeSceneClockTests {
    /// Readings every 1/60 s of a realtime clock that is `offset(t)` ahead of monotonic time t;
    /// the scene times given.
    static func run(
        _ clock: inout RealtimeSceneClock, from start: Double = 100, frames: Int,
        realtime: (Double) -> Double
    ) -> [Double] {
        (0..<frames).map { frame in
            let monotonic = start + Double(frame) / 60
            return clock.sceneTime(realtime: realtime(monotonic), monotonic: monotonic)
        }
    }

    @Test func sceneTimeIsTheRealtimeClockSinceTheEpoch() {
        var clock = RealtimeSceneClock(epoch: 1_767_225_600, period: nil)
        let times = Self.run(&clock, frames: 120) { 1_767_225_600 + 5000 + $0 }
        for (frame, time) in times.enumerated() {
            #expect(abs(time - (5100 + Double(frame) / 60)) < 1e-6, "frame \(frame): \(time)")
        }
    }

    @Test func twoBoxesStartedApartShowTheSameInstant() {
        // One box started 7.3 s of monotonic time after the other (another boot): same realtime,
        // same scene time.
        var first = RealtimeSceneClock(epoch: 0, period: 60)
        var second = RealtimeSceneClock(epoch: 0, period: 60)
        _ = first.sceneTime(realtime: 1000, monotonic: 10)
        _ = second.sceneTime(realtime: 1000, monotonic: 3)
        #expect(
            first.sceneTime(realtime: 1000.5, monotonic: 10.5) == second.sceneTime(realtime: 1000.5, monotonic: 3.5))
        #expect(first.sceneTime(realtime: 1000.5, monotonic: 10.5) == 40.5)
    }

    @Test func thePeriodWrapsSceneTime() {
        var clock = RealtimeSceneClock(epoch: 10, period: 30)
        #expect(clock.sceneTime(realtime: 39.5, monotonic: 0) == 29.5)
        #expect(abs(clock.sceneTime(realtime: 40.25, monotonic: 0.75) - 0.25) < 1e-9)
        #expect(clock.cycleStart(at: clock.unwrappedTime) == 40)
        #expect(RealtimeSceneClock(epoch: 10, period: 30).cycleStart(at: 5) == 10)
    }

    @Test func aForwardStepIsFollowedAtOnce() {
        var clock = RealtimeSceneClock(epoch: 0, period: nil)
        let times = Self.run(&clock, frames: 60) { $0 < 100.5 ? $0 : $0 + 3 }
        #expect(abs(times[29] - (100 + 29.0 / 60)) < 1e-9)
        #expect(abs(times[30] - (103.5)) < 1e-9, "\(times[30])")
    }

    @Test func aSmallBackwardStepRunsOutAtHalfSpeedWithoutGoingBack() {
        var clock = RealtimeSceneClock(epoch: 0, period: nil)
        // The realtime clock steps back 1 s at monotonic 100.5.
        let times = Self.run(&clock, frames: 300) { $0 < 100.5 ? $0 : $0 - 1 }
        for index in 1..<times.count {
            let step = times[index] - times[index - 1]
            #expect(step >= 1.0 / 120 - 1e-9, "frame \(index): the scene went back or stopped (\(step))")
        }
        // From frame 29 (the last before the step) on at half speed, until caught up at frame 149.
        #expect(abs(times[60] - (100 + 29.0 / 60 + 31.0 / 120)) < 1e-9, "\(times[60])")
        let caughtUp = 152
        #expect(abs(times[caughtUp] - (100 + Double(caughtUp) / 60 - 1)) < 1e-9, "\(times[caughtUp])")
    }

    @Test func aLargeBackwardStepIsFollowedAtOnce() {
        var clock = RealtimeSceneClock(epoch: 0, period: nil)
        let times = Self.run(&clock, frames: 40) { $0 < 100.25 ? $0 : $0 - 3600 }
        #expect(abs(times[14] - (100 + 14.0 / 60)) < 1e-9)
        #expect(abs(times[15] - (100.25 - 3600)) < 1e-9, "\(times[15])")
        #expect(abs(times[16] - times[15] - 1.0 / 60) < 1e-9)
    }

    @Test(arguments: [
        ("2026-01-01T00:00:00Z", 1_767_225_600.0), ("1970-01-01T00:00:00Z", 0), ("2000-02-29T12:34:56Z", 951_827_696),
        ("1767225600", 1_767_225_600), ("-5.5", -5.5),
    ])
    func epochsParse(text: String, seconds: Double) {
        #expect(RealtimeSceneClock.epoch(parsing: text) == seconds)
    }

    @Test(arguments: ["2026-02-30T00:00:00Z", "2026-01-01 00:00:00", "2026-01-01T24:00:00Z", "yesterday", "1e9", ""])
    func badEpochsAreRefused(text: String) {
        #expect(RealtimeSceneClock.epoch(parsing: text) == nil)
    }
}
