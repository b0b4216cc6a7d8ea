#if canImport(Glibc)
    import Glibc
#endif

/// Tells when the wall clock is set rather than running on: NTP's first step after a boot
/// without a real-time clock (a Raspberry Pi wakes in the past), `date -s`, `timedatectl`. A
/// CLOCK_REALTIME timerfd armed for a far future time with TFD_TIMER_CANCEL_ON_SET becomes
/// readable, its read failing with ECANCELED, when the clock is set (timerfd_create(2)). A loop
/// that sleeps until a wall-clock time (a schedule's next change, the night hours) waits on `fd`
/// too, so it does not sleep through a step of the clock to the old moment.
public struct WallClockSteps: Sendable {
    public let fd: FileDescriptor

    /// Nil where the kernel cannot (it has had it since 3.0).
    public static func open() -> WallClockSteps? {
        let timer = systemRealtimeTimerCreate()
        guard timer >= 0 else { return nil }
        let steps = WallClockSteps(fd: FileDescriptor(rawValue: timer))
        guard steps.arm() else {
            steps.fd.close()
            return nil
        }
        return steps
    }

    private init(fd: FileDescriptor) { self.fd = fd }

    /// Year 2200: a time the timer never reaches; only a step of the clock ends its wait.
    private func arm() -> Bool { systemRealtimeTimerArmCancelOnSet(fd.rawValue, 7_258_118_400) == 0 }

    /// Whether the clock was set since the last call (then armed again); false when not.
    public func takeStep() -> Bool {
        var expirations: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &expirations) { systemRead(fd.rawValue, $0.baseAddress!, 8) }
        guard count < 0, Errno.current == Errno(rawValue: ECANCELED) else { return false }
        _ = arm()
        return true
    }

    public func close() { fd.close() }
}
