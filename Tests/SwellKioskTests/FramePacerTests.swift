import SwellKiosk
import Testing

@Test func instantVblankEventsSwitchPacingToTheClock() {
    var pacer = FramePacer(refreshHz: 60, vblankAvailable: true)
    #expect(!pacer.usesClock)
    pacer.vblankWaitTook(0.0001)
    pacer.vblankWaitTook(0.0001)
    #expect(!pacer.usesClock, "a couple of quick waits can be chance")
    pacer.vblankWaitTook(0.0001)
    #expect(pacer.usesClock)
}

@Test func realVblankWaitsKeepVblankPacing() {
    var pacer = FramePacer(refreshHz: 60, vblankAvailable: true)
    for _ in 0..<100 {
        pacer.vblankWaitTook(0.0001)
        pacer.vblankWaitTook(0.0001)
        pacer.vblankWaitTook(0.014)
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
