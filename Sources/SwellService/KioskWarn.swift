import SwellSystem

/// Writes one line to standard error at once (diagnostics must not be lost on a crash).
public func kioskWarn(_ message: String) {
    try? FileDescriptor(rawValue: 2).writeAll(Array(("swell: " + message + "\n").utf8))
    // The same line is what `systemctl status` shows as the kiosk's state.
    ServiceNotifier.current?.status(message)
}
