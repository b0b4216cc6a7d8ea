#if canImport(Glibc)
    import Glibc
#endif

/// CLOCK_MONOTONIC in seconds: frame times, pacing deadlines and measurements (never jumps with
/// the wall clock). The one clock of the kiosk loop, the presenters and the command's timings.
public func monotonicSeconds() -> Double {
    var now = timespec()
    _ = systemClockGettime(&now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// CLOCK_REALTIME in seconds since 1970-01-01T00:00:00Z: only for what must agree between
/// machines (a video wall's scene time, kept in step by chrony or linuxptp); it can step, so
/// never for pacing or measurements.
public func realtimeSeconds() -> Double {
    var now = timespec()
    _ = systemRealtimeGettime(&now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// CLOCK_THREAD_CPUTIME_ID in seconds: the CPU time the calling thread has used, for what a
/// thread of its own costs (a video's decoding), apart from waiting and from other threads.
public func threadCPUSeconds() -> Double {
    var now = timespec()
    _ = systemThreadCPUGettime(&now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// Sleeps until the monotonic clock reads `deadline` (absolute, so lateness does not accumulate).
/// Returns early if a signal arrives, so a stop request is seen within one frame.
public func sleepUntil(monotonic deadline: Double) {
    guard deadline > monotonicSeconds() else { return }
    var target = timespec()
    target.tv_sec = Int(deadline.rounded(.down))
    target.tv_nsec = Int((deadline - deadline.rounded(.down)) * 1e9)
    _ = systemClockNanosleepAbsolute(&target)
}
