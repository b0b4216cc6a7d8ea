import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

/// The display's power bookkeeping: the screen saver (no touch for a while), night hours by
/// signal, and which of them a touch may undo.
@Suite struct ScreenPowerTests {
    typealias Change = ScreenPower.Change

    /// `change`, applied as made: what the loop does when the output can switch.
    func step(_ power: inout ScreenPower, signal: Bool? = nil, touched: Bool = false, at now: Double) -> Change? {
        let change = power.change(signal: signal, touched: touched, now: now)
        if let change { power.applied(change, made: true) }
        return change
    }

    @Test func noTouchForAWhileTurnsTheScreenOffUntilTheNextTouch() {
        var power = ScreenPower(offAfter: 10, now: 0)
        #expect(power.secondsUntilOff(now: 4) == 6)
        #expect(step(&power, at: 5) == nil)
        #expect(step(&power, touched: true, at: 8) == nil, "a touch restarts the wait")
        #expect(step(&power, at: 17.9) == nil && power.secondsUntilOff(now: 17.9)! < 0.2)
        #expect(step(&power, at: 18) == Change(on: false, reason: .idle))
        #expect(power.state == .offForIdle && power.secondsUntilOff(now: 19) == nil)
        #expect(step(&power, at: 500) == nil, "off until touched")
        #expect(step(&power, touched: true, at: 600) == Change(on: true, reason: .touch))
        #expect(power.isOn && power.secondsUntilOff(now: 600) == 10)
    }

    @Test func aScreenTurnedOffBySignalStaysOffForTouches() {
        var power = ScreenPower(offAfter: 10, now: 0)
        #expect(step(&power, signal: false, at: 1) == Change(on: false, reason: .signal))
        #expect(step(&power, touched: true, at: 2) == nil && power.state == .offBySignal)
        #expect(step(&power, signal: false, at: 3) == nil, "already off")
        #expect(step(&power, signal: true, at: 4) == Change(on: true, reason: .signal))
        #expect(step(&power, signal: true, at: 5) == nil, "already on")
        // Night hours beginning while the screen saver has it off: touches may no longer wake it.
        #expect(step(&power, at: 20) == Change(on: false, reason: .idle))
        #expect(step(&power, signal: false, at: 21) == Change(on: false, reason: .signal))
        #expect(step(&power, touched: true, at: 22) == nil && power.state == .offBySignal)
    }

    @Test func withoutAScreenSaverOnlySignalsSwitch() {
        var power = ScreenPower(offAfter: nil, now: 0)
        #expect(step(&power, at: 1e6) == nil && power.secondsUntilOff(now: 0) == nil)
        #expect(step(&power, signal: false, at: 1e6 + 1) == Change(on: false, reason: .signal))
    }

    @Test func anOutputThatCannotSwitchIsNotAskedAgainByTheScreenSaver() {
        var power = ScreenPower(offAfter: 1, now: 0)
        let change = power.change(signal: nil, touched: false, now: 2)
        #expect(change == Change(on: false, reason: .idle))
        power.applied(change!, made: false)
        #expect(power.isOn && power.change(signal: nil, touched: false, now: 3) == nil)
        #expect(power.secondsUntilOff(now: 3) == nil, "no wake-up for a change that cannot be made")
    }
}
