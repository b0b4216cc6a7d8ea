import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

@Test func vblankReportsCloserThanARefreshSwitchPacingToTheClock() {
    // A VM: flip events 2 ms apart at 60 Hz.
    var pacer = FramePacer(refreshHz: 60, vblankAvailable: true)
    pacer.vblankReported(at: 10.000)
    pacer.vblankReported(at: 10.002)
    pacer.vblankReported(at: 10.004)
    #expect(!pacer.usesClock, "a couple of close reports can be chance")
    pacer.vblankReported(at: 10.006)
    #expect(pacer.usesClock)
}

@Test func realVblanksKeepVblankPacingEvenWithJitterAndSlowFrames() {
    var pacer = FramePacer(refreshHz: 60, vblankAvailable: true)
    var time = 5.0
    for frame in 0..<300 {
        // One refresh apart with ±1 ms jitter, and every tenth frame missing a vblank.
        time += (frame % 10 == 9 ? 2 : 1) / 60.0 + (frame % 2 == 0 ? 0.001 : -0.001)
        pacer.vblankReported(at: time)
    }
    #expect(!pacer.usesClock)
}

@Test func flipEventsFasterThanTheRefreshOnAverageSwitchToTheClockThoughEachIsSpacedOut() {
    // virtio-gpu under a slow emulated CPU: each event 11.2 ms after the last (89 a second) at a
    // 75 Hz mode: never closer than 3/4 of a period, but more frames than the display shows.
    var pacer = FramePacer(refreshHz: 75, vblankAvailable: true)
    var time = 3.0
    for _ in 0..<FramePacer.windowLength {
        pacer.vblankReported(at: time)
        time += 0.0112
    }
    #expect(!pacer.usesClock, "one window is not complete yet")
    pacer.vblankReported(at: time)
    #expect(pacer.usesClock)
}

@Test func realVblanksWithWakeUpLatencyKeepVblankPacingAtEveryRate() {
    for refreshHz in [30.0, 60, 75, 144, 240] {
        var pacer = FramePacer(refreshHz: refreshHz, vblankAvailable: true)
        // Each report is its vblank plus 0–3 ms of wake-up latency (a loaded kiosk), worst case:
        // the latencies alternate between the extremes, and every other window starts late and
        // ends early (windows run from report 0 to 16, 16 to 32, …).
        let window = FramePacer.windowLength
        for frame in 0..<400 {
            let latency = frame % (2 * window) == 0 ? 0.003 : (frame % 2 == 1 ? 0.003 : 0)
            pacer.vblankReported(at: 7 + Double(frame) / refreshHz + latency)
        }
        #expect(!pacer.usesClock, "\(refreshHz) Hz")
    }
}

@Test func clockDeadlinesAdvanceByOneIntervalWithoutDrift() {
    var pacer = FramePacer(refreshHz: 50, vblankAvailable: false)
    #expect(pacer.usesClock)
    let first = pacer.clockDeadline(now: 100)
    let second = pacer.clockDeadline(now: 100.005)  // the frame took 5 ms
    #expect(abs(first - 100.02) < 1e-9)
    #expect(abs(second - 100.04) < 1e-9, "deadlines are absolute: frame time does not add up")
    let afterStall = pacer.clockDeadline(now: 250)
    #expect(abs(afterStall - 250.02) < 1e-9, "after idling, pacing restarts from now")
}

@Test func nonsenseRefreshRatesFallBackToSixtyHertz() {
    #expect(abs(FramePacer(refreshHz: 0, vblankAvailable: false).interval - 1.0 / 60) < 1e-12)
    #expect(abs(FramePacer(refreshHz: 75, vblankAvailable: false).interval - 1.0 / 75) < 1e-12)
}
