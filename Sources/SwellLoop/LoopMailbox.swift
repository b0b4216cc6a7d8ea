import SwellRaster
import SwellService
import SwellSystem

/// Work other threads hand the kiosk loop (the management API's requests): run on the loop's
/// thread at its next round, between frames, so the loop's state and the contents are only ever
/// touched there. Posting wakes a sleeping loop (an eventfd in its poll set).
public final class LoopMailbox: @unchecked Sendable {
    public let signal: EventSignal
    private let lock = Lock()
    /// Each job gets the loop, or nil once the loop has ended (`close`).
    private var jobs: [(KioskLoop?) -> Void] = []
    private var closed = false

    public init() throws(Errno) { signal = try EventSignal() }

    /// Runs `job` on the loop's thread at its next round (with nil, at once, once closed).
    public func post(_ job: @escaping (KioskLoop?) -> Void) {
        let accepted = lock.withLock {
            if !closed { jobs.append(job) }
            return !closed
        }
        if accepted { signal.notify() } else { job(nil) }
    }

    /// Runs `job` on the loop's thread and waits for its result (from another thread only);
    /// `ended` once the loop has ended.
    public func run<Result>(ended: Result, _ job: @escaping (KioskLoop) -> Result) -> Result {
        let box = ResultBox<Result>()
        post { loop in
            let result = loop.map(job) ?? ended
            box.done.withLock { box.result = result }
            box.done.broadcast()
        }
        box.done.wait { box.result == nil }
        return box.done.withLock { box.result! }
    }

    /// The loop's side: runs what was posted.
    func runPosted(_ loop: KioskLoop) {
        signal.drain()
        let taken = lock.withLock {
            defer { jobs.removeAll() }
            return jobs
        }
        for job in taken { job(loop) }
    }

    /// The loop has ended: what was posted, and what will be, is answered `ended`.
    public func close() {
        let taken = lock.withLock {
            closed = true
            defer { jobs.removeAll() }
            return jobs
        }
        for job in taken { job(nil) }
    }
}

private final class ResultBox<Result>: @unchecked Sendable {
    var result: Result?
    let done = ConditionLock()
}

/// One output as other threads see it: its presented frame (copied on the loop's thread when
/// another thread asks, so the loop never waits for one), its frame times over the last minute
/// and its screen's power.
public final class OutputMonitor: @unchecked Sendable {
    private let statsLock = Lock()
    /// (end of the frame, monotonic seconds; milliseconds it took), a ring of the last frames.
    private var times: [(end: Double, milliseconds: Double)]
    private var next = 0
    private var filled = 0
    private var framesShown = 0
    private var screenOn = true
    /// One reader of the snapshot at a time; the loop writes it only for the reader holding this.
    private let snapshotLock = Lock()
    /// The presented frame as last copied (kept: copies after the first allocate nothing), the
    /// frames shown when it was copied, and when (monotonic seconds).
    private var snapshot: PixelBuffer?
    private var snapshotFrames = -1
    private var snapshotAt = -Double.infinity

    public init(capacity: Int = 4096) {
        times = Array(repeating: (0, 0), count: capacity)
    }

    func record(end: Double, milliseconds: Double) {
        statsLock.withLock {
            times[next] = (end, milliseconds)
            next = (next + 1) % times.count
            filled = min(filled + 1, times.count)
            framesShown += 1
        }
    }

    func setScreen(on: Bool) { statsLock.withLock { screenOn = on } }

    /// Other threads: calls `body` with the frame output `index` presents and when it was
    /// copied. The copy is made on the loop's thread between two frames (through `mailbox`: a
    /// memcpy into the kept snapshot), unless the snapshot is newer than this call or no frame
    /// was shown since it; one caller at a time, so a crowd of callers shares one copy.
    public func withPresentedFrame<Result>(
        through mailbox: LoopMailbox, output index: Int,
        _ body: (_ frame: PixelBuffer?, _ copiedAt: Double) -> Result
    ) -> Result {
        let asked = monotonicSeconds()
        return snapshotLock.withLock {
            let shown = statsLock.withLock { framesShown }
            if snapshot == nil || (snapshotAt < asked && snapshotFrames != shown) {
                // The loop writes the snapshot while this thread waits for it, holding the lock
                // every other reader waits on.
                _ = mailbox.run(ended: false) { loop in
                    self.copy(loop.presenters[index].shadow)
                    return true
                }
            }
            return body(snapshot, snapshotAt)
        }
    }

    /// The loop's side: copies `shadow` into the snapshot.
    private func copy(_ shadow: PixelBuffer) {
        if snapshot?.width != shadow.width || snapshot?.height != shadow.height {
            snapshot = PixelBuffer(width: shadow.width, height: shadow.height)
        }
        guard let snapshot else { return }
        let rowBytes = shadow.width * 4
        for y in 0..<shadow.height {
            (snapshot.surface.base + y * snapshot.stride).copyMemory(
                from: shadow.surface.base + y * shadow.stride, byteCount: rowBytes)
        }
        snapshotFrames = statsLock.withLock { framesShown }
        snapshotAt = monotonicSeconds()
    }

    /// Frames shown, and the frame times (ms) over the `window` seconds before `now`: how many,
    /// their 50th and 99th percentile and maximum, and how many took longer than `budget` ms.
    public func summary(now: Double, budget: Double, window: Double = 60) -> FrameSummary {
        let (recent, frames, on) = statsLock.withLock { () -> ([Double], Int, Bool) in
            var recent: [Double] = []
            recent.reserveCapacity(filled)
            for index in 0..<filled where times[index].end >= now - window { recent.append(times[index].milliseconds) }
            return (recent, framesShown, screenOn)
        }
        var summary = FrameSummary(frames: frames, screenOn: on)
        guard !recent.isEmpty else { return summary }
        let sorted = recent.sorted()
        func percentile(_ p: Double) -> Double {
            sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        summary.recent = (
            sorted.count, percentile(0.5), percentile(0.99), sorted[sorted.count - 1], sorted.count { $0 > budget }
        )
        return summary
    }
}

/// An output's frames as `OutputMonitor.summary` reports them.
public struct FrameSummary: Sendable {
    /// Frames shown since the loop started.
    public var frames: Int
    public var screenOn: Bool
    /// The window's frames: count, p50, p99, maximum (ms), and those over budget (nil: none).
    public var recent: (count: Int, p50: Double, p99: Double, max: Double, overBudget: Int)?
}
