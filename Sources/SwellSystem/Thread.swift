#if canImport(Glibc)
    import Glibc
#endif

/// A thread of the process (a pthread), started with a closure and joined once.
///
/// Why not Foundation's `Thread` or Dispatch: SwellRaster's worker pool needs a few long-lived
/// threads and nothing else, without Foundation. Starting one allocates (its closure, boxed);
/// it is meant for threads created once, not per frame.
public final class Thread {
    private var thread: pthread_t
    private var joined = false

    /// Starts `body` on a new thread. Throws the error number pthread_create returned (EAGAIN:
    /// the process's or system's thread limit).
    public init(_ body: @escaping () -> Void) throws(Errno) {
        let start = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        var created = pthread_t()
        let status = systemThreadCreate(&created, threadMain, start)
        guard status == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(start).release()
            throw Errno(rawValue: status)
        }
        thread = created
    }

    /// Waits until the thread's body has returned (once; later calls return at once).
    public func join() {
        guard !joined else { return }
        joined = true
        let status = systemThreadJoin(thread)
        // Only EDEADLK (joining itself) or a bad handle can fail here: both are bugs.
        precondition(status == 0, "pthread_join failed (\(Errno(rawValue: status).name))")
    }

    /// A thread never joined is joined here, so its resources are not leaked.
    deinit { join() }

    /// Restricts the calling thread to one processor: the `index`-th (modulo their number) of
    /// those it may run on now (sched_setaffinity). Returns that processor's number, or nil
    /// where the kernel refused or the thread may run on only one.
    ///
    /// Why: SwellRaster's worker pool wakes its helpers from a futex as a paced frame starts,
    /// and Linux's wake-affine placement then often queued the helper on the waking thread's
    /// own core, where the two took turns (the waveform's paced two-thread frame 0.70–0.77 ms
    /// against 0.23–0.26 with the helper on the other core).
    @discardableResult
    public static func pinCurrent(toAllowedProcessor index: Int) -> Int? {
        let processor = systemPinThreadToAllowed(Int32(truncatingIfNeeded: index))
        return processor >= 0 ? Int(processor) : nil
    }
}

/// Keeps a thread off the processors of pinned helpers for a while (`Thread.pinCurrent`: helper
/// i on the i-th allowed processor), and gives it its own mask back afterwards. One per pool,
/// used by one thread at a time; the mask's storage is allocated once.
///
/// Why: the caller of a worker pool stayed on the core its pinned helper was woken on (Linux
/// did not move it), and the two took turns there; restricted for the length of a job, it
/// moves to a free core, and threads it creates between jobs keep the full mask.
public final class HelperAffinity: @unchecked Sendable {
    private let saved = UnsafeMutablePointer<UInt64>.allocate(capacity: 16)
    private var changed = false

    public init() { saved.initialize(repeating: 0, count: 16) }

    deinit { saved.deallocate() }

    /// Restricts the calling thread to its processors but those of helpers 1...`helpers`, if
    /// there are more processors than helpers; nothing otherwise, or where the kernel refused.
    public func keepCurrentThreadOff(helpers: Int) {
        changed = systemKeepOffHelpers(Int32(truncatingIfNeeded: helpers), saved) == 1
    }

    /// Gives the thread back the mask `keepCurrentThreadOff` found (nothing if it changed none).
    public func restore() {
        guard changed else { return }
        changed = false
        _ = systemRestoreAffinity(saved)
    }
}

/// A thread's body, passed retained through pthread_create's argument.
private final class ThreadStart {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

private func threadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue().body()
    return nil
}

/// A mutex (pthread's) for state that threads share, held while `withLock`'s body runs.
public final class Lock: @unchecked Sendable {
    // pthread objects must not move: they live in memory of their own, not in the class's
    // stored properties (which Swift may not keep at a fixed address for C).
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        // Default attributes: this fails only for a lack of memory, which Swift treats as fatal too.
        precondition(systemMutexInit(mutex) == 0, "pthread_mutex_init failed")
    }

    deinit {
        _ = systemMutexDestroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        _ = systemMutexLock(mutex)
        defer { _ = systemMutexUnlock(mutex) }
        return try body()
    }
}

/// A mutex with a few condition variables on it (pthread's), for threads that sleep until
/// another changes some shared state. The state itself is the caller's (atomics, typically);
/// the lock only makes "check, then sleep" and "change, then wake" exclude each other, so a
/// wake-up cannot fall between a sleeper's check and its sleep.
public final class ConditionLock: @unchecked Sendable {
    private let lock = Lock()
    private var mutex: UnsafeMutablePointer<pthread_mutex_t> { lock.mutex }
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    /// How many conditions (numbered 0..<count).
    public let count: Int

    public init(conditions count: Int = 1) {
        precondition(count >= 1)
        self.count = count
        conditions = .allocate(capacity: count)
        // Default attributes: these fail only for a lack of memory, which Swift treats as fatal too.
        for index in 0..<count {
            precondition(systemCondInit(conditions + index) == 0, "pthread_cond_init failed")
        }
    }

    deinit {
        for index in 0..<count { _ = systemCondDestroy(conditions + index) }
        conditions.deallocate()
    }

    /// Sleeps on condition `condition` while `waiting()` holds, checked under the lock (so a
    /// `broadcast` or `signal` made after the state changed cannot be missed).
    public func wait(on condition: Int = 0, while waiting: () -> Bool) {
        precondition(condition >= 0 && condition < count)
        _ = systemMutexLock(mutex)
        while waiting() { _ = systemCondWait(conditions + condition, mutex) }
        _ = systemMutexUnlock(mutex)
    }

    /// Runs `body` holding the lock: for changing the state that sleepers check, when no atomic does.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock(body)
    }

    /// Wakes every thread sleeping on `condition`.
    public func broadcast(_ condition: Int = 0) {
        precondition(condition >= 0 && condition < count)
        _ = systemMutexLock(mutex)
        _ = systemCondBroadcast(conditions + condition)
        _ = systemMutexUnlock(mutex)
    }

    /// Wakes one thread sleeping on `condition`.
    public func signal(_ condition: Int = 0) {
        precondition(condition >= 0 && condition < count)
        _ = systemMutexLock(mutex)
        _ = systemCondSignal(conditions + condition)
        _ = systemMutexUnlock(mutex)
    }
}
