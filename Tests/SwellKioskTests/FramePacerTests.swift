import SwellKiosk
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
