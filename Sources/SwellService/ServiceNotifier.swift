import SwellSystem
import Synchronization

/// systemd's service notification protocol (sd_notify(3)) without libsystemd: text datagrams
/// to the socket named by `$NOTIFY_SOCKET`, which systemd sets for a `Type=notify` unit.
///
/// A kiosk uses it for three things:
/// - `READY=1` once the picture is on screen (or Swell waits for a display to be plugged in), so
///   `systemctl start` and units ordered after the kiosk know it is up.
/// - `STATUS=…`: the last thing Swell reported ("running ripples on card0 HDMI-A-1 …", "HDMI-A-1
///   disconnected; still running…", "screen off (SIGUSR1)…"), shown by `systemctl status`.
/// - `WATCHDOG=1` while the main loop is alive, when the unit sets `WatchdogSec=`: a loop that
///   stops coming round (a driver call that never returns, a deadlock, a scene stuck in a loop)
///   is killed by systemd with SIGABRT — the crash handler puts the console and CRTC back — and
///   restarted, instead of leaving a frozen picture on a screen nobody watches.
///
/// Immutable after `init` but for the time of the last keep-alive (an atomic), so one instance
/// serves the whole process (`current`). Keep-alives allocate nothing.
public final class ServiceNotifier: @unchecked Sendable {
    /// The notifier systemd asked for in this process's environment, or nil when Swell was not
    /// started by a `Type=notify` unit (a terminal, a script, a test).
    public static let current: ServiceNotifier? = ServiceNotifier(environment: processEnvironment())

    /// `$NOTIFY_SOCKET`: an absolute path or "@name" (abstract namespace).
    public let socketPath: String
    /// Seconds within which systemd expects a keep-alive (`WatchdogSec=`), or nil without a watchdog.
    public let watchdogSeconds: Double?
    private let fd: FileDescriptor
    /// The path as a C string, kept for the keep-alives (no allocation per send).
    private let cPath: UnsafeMutablePointer<CChar>
    /// Monotonic nanoseconds of the last keep-alive.
    private let lastKeepAlive = Atomic<Int64>(0)

    /// From `environment` (NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID as systemd sets them; a
    /// watchdog meant for another process — WATCHDOG_PID not ours — is ignored). Nil without a
    /// usable NOTIFY_SOCKET.
    public init?(environment: [String: String], processID: Int32 = currentProcessID()) {
        guard let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@"), path.count > 1
        else { return nil }
        guard let fd = try? FileDescriptor.openUnixDatagramSocket() else { return nil }
        self.fd = fd
        socketPath = path
        var watchdog: Double? = nil
        if let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 {
            let forUs = environment["WATCHDOG_PID"].map { Int32($0) == processID } ?? true
            if forUs { watchdog = Double(microseconds) / 1e6 }
        }
        watchdogSeconds = watchdog
        let utf8 = Array(path.utf8CString)
        cPath = .allocate(capacity: utf8.count)
        cPath.initialize(from: utf8, count: utf8.count)
        lastKeepAlive.store(Self.nanoseconds(monotonicSeconds()), ordering: .relaxed)
    }

    deinit {
        fd.close()
        cPath.deallocate()
    }

    /// The service is up: `READY=1`, with its status line if given.
    public func ready(status: String? = nil) {
        send("READY=1" + (status.map { "\nSTATUS=" + Self.oneLine($0) } ?? ""))
    }

    /// The status line `systemctl status` shows.
    public func status(_ text: String) {
        send("STATUS=" + Self.oneLine(text))
    }

    /// Swell is stopping (the console and display are being put back).
    public func stopping() {
        send("STOPPING=1\nSTATUS=stopping: giving the display back")
    }

    /// How often the loop says it is alive: a quarter of the watchdog's time, so a keep-alive
    /// survives one late frame or a busy moment with margin (sd_watchdog_enabled(3) asks for at
    /// least every half).
    public var keepAliveInterval: Double? { watchdogSeconds.map { $0 / 4 } }

    /// Sends `WATCHDOG=1` if a keep-alive is due at `now` (monotonic seconds). Call it each time
    /// round the loop; it costs a clock comparison otherwise.
    public func keepAlive(now: Double = monotonicSeconds()) {
        guard let interval = keepAliveInterval else { return }
        let nanos = Self.nanoseconds(now)
        guard nanos - lastKeepAlive.load(ordering: .relaxed) >= Self.nanoseconds(interval) else { return }
        lastKeepAlive.store(nanos, ordering: .relaxed)
        let message: StaticString = "WATCHDOG=1"
        try? fd.send(
            UnsafeRawBufferPointer(start: message.utf8Start, count: message.utf8CodeUnitCount), toUnixSocket: cPath)
    }

    /// Seconds from `now` until the next keep-alive is due (0 if it is due), or nil without a
    /// watchdog: the longest an idle loop may sleep.
    public func secondsUntilKeepAlive(now: Double = monotonicSeconds()) -> Double? {
        guard let interval = keepAliveInterval else { return nil }
        let last = Double(lastKeepAlive.load(ordering: .relaxed)) * 1e-9
        return max(0, last + interval - now)
    }

    /// Sends one notification; failures are ignored (the service manager may be gone while we
    /// stop, and a kiosk must not stop for it).
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { message in _ = try? fd.send(message, toUnixSocket: cPath) }
    }

    /// Notification fields are lines: a newline inside a status would start a new field.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func nanoseconds(_ seconds: Double) -> Int64 { Int64(seconds * 1e9) }
}
