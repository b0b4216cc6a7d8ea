import CSysShims
import SwellSystem

/// SIGINT, SIGTERM and SIGHUP turned into a flag and a readable pipe (the self-pipe trick), so
/// the frame loop and every blocking wait can notice a stop request and run the restore path.
public enum StopSignals {
    nonisolated(unsafe) private static var pipe: FileDescriptor?

    /// Installs the handlers (idempotent) and the fatal-signal restore handler; returns the pipe's read end.
    @discardableResult
    public static func install() throws(KioskError) -> FileDescriptor {
        if let pipe { return pipe }
        let fd = swell_signals_install()
        guard fd >= 0 else {
            throw KioskError(.io, "cannot install signal handlers: \(Errno.current)")
        }
        _ = swell_crash_restore_install()
        pipe = FileDescriptor(rawValue: fd)
        return pipe!
    }

    /// The signal that asked us to stop (2, 15 or 1), or nil while none has arrived.
    public static var received: Int32? {
        let number = swell_signal_received()
        return number == 0 ? nil : number
    }

    /// Installs SIGUSR1 (screen off) and SIGUSR2 (screen on) as requests the kiosk loop takes
    /// (`takeScreenRequest`); they wake it through the same pipe. Only a kiosk loop installs them:
    /// elsewhere the signals keep their default action.
    public static func installScreenSignals() throws(KioskError) {
        guard swell_screen_signals_install() == 0 else {
            throw KioskError(.io, "cannot install the SIGUSR1/SIGUSR2 handlers: \(Errno.current)")
        }
    }

    /// The screen request since the last call (true: on, false: off), and the pipe emptied.
    public static func takeScreenRequest() -> Bool? {
        swell_drain_signal_pipe()
        switch swell_take_screen_request() {
        case 1: return false
        case 2: return true
        default: return nil
        }
    }

    public static var name: String {
        switch received {
        case 1: "SIGHUP"
        case 2: "SIGINT"
        case 15: "SIGTERM"
        case let number?: "signal \(number)"
        case nil: "none"
        }
    }
}
