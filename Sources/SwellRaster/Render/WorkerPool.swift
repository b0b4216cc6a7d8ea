import CSpin
import SwellSystem
import Synchronization

/// A job for `WorkerPool.run`: a C function called once on every thread with the job's context
/// and the thread's index (0 is the caller). A plain function pointer, so handing a frame over
/// allocates nothing (a Swift closure capturing the frame would).
typealias PoolBody = @convention(c) (_ context: UnsafeRawPointer, _ worker: Int) -> Void

/// A few threads created once, helping the caller with each job handed to `run`.
///
/// Why not `DispatchQueue.concurrentPerform`: the waveform's damaged rows take ~0.3 ms a thread,
/// and Dispatch's wake-up and join per frame were a large share of that. Here a job is published
/// by bumping an atomic generation; helpers spin on it for a bounded time (`spinLimit` pauses,
/// ~50 µs) and only then sleep on a condition variable, so frames rendered back to back never
/// wait for the scheduler, and an idle kiosk's helpers do not burn a core. A helper that has not
/// joined a job by the time the caller has done its part (all of it, if the helper never came)
/// is not waited for: on a busy machine a helper waiting for a core made two threads slower
/// than one. `wake()` lets a caller start sleeping helpers early, while it prepares the job:
/// woken so, a helper spins longer (`wakeSpinLimit`) before it sleeps again, long enough to
/// cover a frame's content update (the scene building its display list) on a paced kiosk.
/// `deinit` stops and joins them.
final class WorkerPool {
    /// Threads besides the caller.
    let helpers: Int
    private let state: PoolState
    /// Keeps the caller off the pinned helpers' cores while it runs a job (nil: not pinned).
    private let callerAffinity: HelperAffinity?
    private var threads: [SwellSystem.Thread] = []

    /// `pinsHelpers`: each helper keeps to one processor, helper i to the i-th of those the
    /// process may run on (`SwellSystem.Thread.pinCurrent`), so that a helper woken for a frame
    /// is never queued behind the caller on the caller's core (Linux's wake-affine placement
    /// did that on a paced kiosk); the caller itself is left free, and moves off a helper's
    /// core on its own.
    init(helpers: Int, pinsHelpers: Bool = true) {
        precondition(helpers >= 1)
        self.helpers = helpers
        state = PoolState(helpers: helpers)
        callerAffinity = pinsHelpers ? HelperAffinity() : nil
        for index in 1...helpers {
            let state = self.state
            do {
                threads.append(
                    try SwellSystem.Thread {
                        if pinsHelpers { SwellSystem.Thread.pinCurrent(toAllowedProcessor: index) }
                        state.helperLoop(worker: index)
                    })
            } catch {
                // Without threads no frame can be drawn in parallel; nor can it be drawn at all
                // if the system cannot create two, so this is not a recoverable error.
                preconditionFailure("pthread_create failed (\(error))")
            }
        }
    }

    deinit {
        state.shutdown.store(true, ordering: .sequentiallyConsistent)
        state.signal.broadcast(PoolState.work)
        for thread in threads { thread.join() }
    }

    /// Runs `body(context, worker)` on the caller (worker 0) and on the helpers (1...helpers)
    /// that join before the caller's own call returns, and returns when those have returned.
    /// `body` must do the whole job whoever runs it (take work items from a shared counter): a
    /// helper that is late (asleep, or waiting for a core on a busy machine) is not waited for,
    /// the caller having done its part. `context` must stay valid until `run` returns.
    func run(_ body: PoolBody, context: UnsafeRawPointer) {
        // Off the helpers' cores for the job (a caller left where a helper is pinned took
        // turns with it there), then back to its own mask.
        callerAffinity?.keepCurrentThreadOff(helpers: helpers)
        defer { callerAffinity?.restore() }
        state.body = body
        state.context = context
        // Open the job (release: after its fields), then publish it. Sequentially consistent
        // with the helpers' count of sleepers: either a helper about to sleep sees the new
        // generation, or this sees it asleep and signals it.
        state.participants.store(0, ordering: .sequentiallyConsistent)
        state.generation.add(1, ordering: .sequentiallyConsistent)
        if state.sleepingHelpers.load(ordering: .sequentiallyConsistent) > 0 { state.signal.broadcast(PoolState.work) }
        body(context, 0)
        state.closeAndWaitForParticipants()
    }

    /// Starts sleeping helpers spinning again (for `wakeSpinLimit`), so that the next `run` finds
    /// them awake: the wake-up's latency (and the futex call's cost to the caller) overlaps the
    /// caller's own preparation of the job. Cheap when no helper sleeps (one relaxed load).
    func wake() {
        guard state.sleepingHelpers.load(ordering: .relaxed) > 0 else { return }
        state.wakeups.add(1, ordering: .sequentiallyConsistent)
        state.signal.broadcast(PoolState.work)
    }

    /// Pauses a waiting thread spins for before it sleeps: ~50 µs at the ~25 ns a `pause` took on
    /// the 2-core AMD EPYC (longer where `pause` is slower, e.g. ~140 cycles on Skylake).
    static let spinLimit = 2048

    /// Pauses a helper woken by `wake()` spins for before it sleeps again: ~400 µs on the 2-core
    /// AMD EPYC, time for a scene to build its display list after `FrameRenderer.prepare()`
    /// (the waveform's takes tens of µs; a page's text layout may take longer, and then the
    /// helper sleeps again and `render`'s own `wake()` starts it once more). Bounded, so a
    /// kiosk that wakes the pool for a frame that then draws nothing does not spin for long.
    static let wakeSpinLimit = 16384

    /// Times helpers were woken from their sleep by `wake()` (measuring and tests: the pool's
    /// wake path is taken).
    var wakeups: Int { state.wakeups.load(ordering: .relaxed) }
}

/// What the caller and the helpers share.
private final class PoolState: @unchecked Sendable {
    let helpers: Int
    /// Bumped once per job (release: the job's fields are written before).
    let generation = Atomic<Int>(0)
    /// Helpers running the current job, plus `closed` once the caller has done its part: a
    /// helper joins only an open job (and reads the job's fields after joining).
    let participants = Atomic<Int>(PoolState.closed)
    static let closed = 1 << 32
    /// Helpers asleep (or about to sleep) on `signal`'s work condition.
    let sleepingHelpers = Atomic<Int>(0)
    /// Bumped by `wake()`: sleeping helpers go back to spinning.
    let wakeups = Atomic<Int>(0)
    /// Whether the caller sleeps (or is about to) on `signal`'s done condition.
    let callerSleeping = Atomic<Bool>(false)
    let shutdown = Atomic<Bool>(false)
    /// Helpers sleep on its `work` condition, the caller on `done`.
    let signal = ConditionLock(conditions: 2)
    static let work = 0
    static let done = 1
    /// The current job: written by the caller before `generation` is bumped, read by the helpers
    /// after they see the new generation.
    var body: PoolBody?
    var context: UnsafeRawPointer?

    init(helpers: Int) { self.helpers = helpers }

    /// A helper's life: wait for a new generation, run its job, report it done; until shutdown.
    func helperLoop(worker: Int) {
        var seen = 0
        while true {
            guard let generation = waitForJob(after: seen) else { return }
            seen = generation
            guard join() else { continue }
            if let body, let context { body(context, worker) }
            if participants.subtract(1, ordering: .sequentiallyConsistent).newValue == PoolState.closed,
                callerSleeping.load(ordering: .sequentiallyConsistent)
            {
                signal.signal(PoolState.done)
            }
        }
    }

    /// Counts this helper in, unless the job is closed (the caller is done; the job may even be
    /// a later one than the generation seen, which is as good: it needs any helper's help).
    private func join() -> Bool {
        var current = participants.load(ordering: .acquiring)
        while current < PoolState.closed {
            let (exchanged, original) = participants.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// The generation after `seen` (nil: shut down), spinning for `spinLimit` pauses and then
    /// sleeping until a job or a `wake()` comes, then spinning again.
    private func waitForJob(after seen: Int) -> Int? {
        var limit = WorkerPool.spinLimit
        while true {
            for _ in 0..<limit {
                let now = generation.load(ordering: .acquiring)
                if now != seen { return now }
                if shutdown.load(ordering: .relaxed) { return nil }
                swell_spin_pause()
            }
            let woken = wakeups.load(ordering: .sequentiallyConsistent)
            sleepingHelpers.add(1, ordering: .sequentiallyConsistent)
            signal.wait(on: PoolState.work) {
                generation.load(ordering: .sequentiallyConsistent) == seen
                    && wakeups.load(ordering: .sequentiallyConsistent) == woken
                    && !shutdown.load(ordering: .sequentiallyConsistent)
            }
            sleepingHelpers.subtract(1, ordering: .sequentiallyConsistent)
            // Woken early for a job being prepared: wait for it longer than between jobs.
            limit =
                wakeups.load(ordering: .relaxed) != woken ? WorkerPool.wakeSpinLimit : WorkerPool.spinLimit
        }
    }

    /// The caller's end of a job: no helper joins from now on; wait for those that did (spin,
    /// then sleep until the last one signals).
    func closeAndWaitForParticipants() {
        if participants.add(PoolState.closed, ordering: .sequentiallyConsistent).newValue == PoolState.closed {
            return
        }
        for _ in 0..<WorkerPool.spinLimit {
            if participants.load(ordering: .acquiring) == PoolState.closed { return }
            swell_spin_pause()
        }
        callerSleeping.store(true, ordering: .sequentiallyConsistent)
        signal.wait(on: PoolState.done) { participants.load(ordering: .sequentiallyConsistent) != PoolState.closed }
        callerSleeping.store(false, ordering: .relaxed)
        // Acquire the helpers' writes (their pixels) through the counter they released.
        _ = participants.load(ordering: .acquiring)
    }
}
