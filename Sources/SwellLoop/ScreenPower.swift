import SwellDisplay
import SwellInput
import SwellService

/// Whether the display should be powered, and why not: SIGUSR1/SIGUSR2 turn it off and on (a
/// kiosk's night hours), and optionally a while without a touch turns it off until the next one
/// (an interactive kiosk's screen saver), and night hours (`OffHours`) turn it off and on at
/// their changes. A screen turned off by signal or for the night stays off for touches: at night
/// nobody should wake a signage screen by leaning on it. Pure bookkeeping: the loop applies
/// the changes (`Presenter.setScreen`) and reports back.
public struct ScreenPower: Sendable {
    public enum State: Sendable, Equatable {
        case on
        case offBySignal
        case offForIdle
        case offForHours
    }

    /// Why the power changes.
    public enum Reason: Sendable, Equatable {
        case signal
        case idle
        case touch
        case hours
    }

    public struct Change: Sendable, Equatable {
        public let on: Bool
        public let reason: Reason

        public init(on: Bool, reason: Reason) {
            self.on = on
            self.reason = reason
        }
    }

    public private(set) var state: State = .on
    /// Seconds without a touch after which the screen goes off (nil: never).
    public let offAfter: Double?
    private var lastTouch: Double
    /// The output cannot turn its power off: stop asking (the loop said so once).
    private var unsupported = false
    /// What the night hours said at the last look (nil: not looked yet, or none).
    private var hoursOff: Bool?

    public init(offAfter: Double?, now: Double) {
        self.offAfter = offAfter
        lastTouch = now
    }

    public var isOn: Bool { state == .on }

    /// The change to make now, if any: `signal` is a pending SIGUSR1 (false) or SIGUSR2 (true)
    /// request, `touched` whether input arrived since the last call, `hoursOff` whether it is
    /// night now (nil: the kiosk has no night hours); only a change of the hours, or the first
    /// look, acts.
    public mutating func change(signal: Bool?, touched: Bool, hoursOff: Bool? = nil, now: Double) -> Change? {
        if touched { lastTouch = now }
        if let on = signal {
            if on && state != .on { return Change(on: true, reason: .signal) }
            if !on && state != .offBySignal { return Change(on: false, reason: .signal) }
            return nil
        }
        if let night = hoursOff, night != self.hoursOff {
            self.hoursOff = night
            if night && (state == .on || state == .offForIdle) { return Change(on: false, reason: .hours) }
            if !night && state == .offForHours { return Change(on: true, reason: .hours) }
        }
        if touched && state == .offForIdle { return Change(on: true, reason: .touch) }
        if state == .on, !unsupported, let offAfter, now - lastTouch >= offAfter {
            return Change(on: false, reason: .idle)
        }
        return nil
    }

    /// Records the outcome of `change`: made (the output switched), or not (it cannot).
    public mutating func applied(_ change: Change, made: Bool) {
        guard made else {
            if change.reason == .idle { unsupported = true }
            return
        }
        if change.on {
            state = .on
        } else {
            switch change.reason {
            case .signal: state = .offBySignal
            case .hours: state = .offForHours
            case .idle, .touch: state = .offForIdle
            }
        }
    }

    /// Seconds until the screen saver is due (nil: it is not), for the loop's sleep.
    public func secondsUntilOff(now: Double) -> Double? {
        guard state == .on, !unsupported, let offAfter else { return nil }
        return max(0, lastTouch + offAfter - now)
    }
}
