import SwellRaster
import SwellSystem

/// A video shown by time: a thread of its own decodes and converts pictures ahead of the display
/// into a small queue of frame-sized buffers, and the render thread asks for the picture of each
/// refresh (`frame(at:width:height:)`): the one whose interval [start, end) holds the time.
///
/// - **Never early, late ones dropped.** A picture is shown only once its start has come. A
///   picture whose end has passed before any refresh asked for it is dropped and counted
///   (`dropped`): the file's cadence is kept against the scene clock, so a 25 fps clip on a 60 Hz
///   display shows each picture for 2 or 3 refreshes, as the time stamps say.
/// - **Exact seeking.** A time the queue cannot reach (the first frame, a jump back or more than
///   `seekAhead` seconds forward, a new size) seeks the decoder to the key frame before it and
///   decodes forward, dropping the pictures that end before it: the picture shown at t is always
///   the one whose interval holds t, wherever decoding started.
/// - **Waiting or not.** With `waitsForFrames` (dumps, benchmarks, tests) the render thread waits
///   for the picture due, so the same time gives the same bytes however fast the decoder runs.
///   Without it (a kiosk), a picture not decoded in time is not waited for: the one before stays
///   on screen and the late one is dropped when its time has passed.
/// - **Looping.** A looping video's pictures are timed on from one play-through to the next (the
///   decoder seeks back to the start at the end of the stream), so the scene clock runs on.
///   A video played once holds its last picture.
/// - **Memory.** `depth` pictures queued, plus the one shown and the one being converted: the
///   buffers are allocated at the first frames (and after a size change) and then reused, so a
///   playing video allocates nothing per frame.
public final class VideoPlayback {
    /// The picture to show now and its interval (`end` is infinite for a last picture held).
    public struct Shown {
        public let buffer: PixelBuffer
        public let start: Double
        public let end: Double
    }

    public var info: VideoInfo { pipeline.info }
    public let waitsForFrames: Bool
    /// A jump forward farther than this past the pictures decoded (seconds) seeks instead of
    /// decoding through.
    public static let seekAhead = 2.0
    /// Pictures decoded ahead of the one shown.
    public static let defaultDepth = 3
    /// Pictures whose time passed before they could be shown (a decoder that fell behind): those
    /// the decoding thread found late and did not convert, and those a later one overtook in
    /// the queue.
    public var dropped: Int { pipeline.dropped }
    /// Pictures shown, each counted once.
    public private(set) var shownCount = 0
    /// What the decoding thread spent, in CPU seconds of its own: decoding every picture (those
    /// skipped too: a picture before a seek's target must be decoded all the same), and
    /// converting those it queued. With `converted`, the cost of a picture.
    public var decodingCost: (decodeSeconds: Double, convertSeconds: Double, decoded: Int, converted: Int) {
        pipeline.cost
    }

    private let pipeline: Pipeline
    private var thread: Thread?
    private var shown: Pipeline.Ready?

    /// Starts decoding `decoder` on a thread of its own. `background` paints the bars of a `fit`
    /// picture; `report` gets one line for each picture skipped or a stream that stops decoding.
    public init(
        decoder: VideoDecoder, loops: Bool, scaling: VideoScaling, background: UInt32, waitsForFrames: Bool,
        depth: Int = VideoPlayback.defaultDepth, report: @escaping (String) -> Void = { _ in }
    ) throws(Errno) {
        self.waitsForFrames = waitsForFrames
        pipeline = Pipeline(
            decoder: decoder, loops: loops, scaling: scaling, background: background, depth: max(1, depth),
            report: report)
        let pipeline = self.pipeline
        thread = try Thread { pipeline.run() }
    }

    deinit {
        pipeline.stop()
        thread?.join()
    }

    /// The picture to show at `time` (seconds of the scene clock; the video starts at 0) in a
    /// `width`×`height` buffer; nil only when no picture ever decoded.
    public func frame(at time: Double, width: Int, height: Int) -> Shown? {
        let sized = pipeline.hasSize(width, height)
        if let shown, sized, time >= shown.start, time < shown.end {
            return Shown(buffer: shown.buffer, start: shown.start, end: shown.end)
        }
        if !sized || pipeline.needsSeek(to: time, after: shown) {
            if !sized { shown = nil }
            pipeline.seek(to: time, width: width, height: height)
            // A start (or a jump) waits until the queue is full, not for its first picture alone:
            // FFmpeg's frame threads hand the first pictures out only after several packets, and
            // the next refreshes would wait for them (or, on a kiosk, drop them).
            pipeline.waitForPictures(beyond: pipeline.depth - 1)
        }
        while true {
            let step = pipeline.take(at: time, shown: &shown, exact: waitsForFrames)
            if step.took { shownCount += 1 }
            switch step.outcome {
            case .ready, .finished:
                return shown.map { current in
                    Shown(
                        buffer: current.buffer, start: current.start,
                        end: step.outcome == .finished ? .infinity : current.end)
                }
            case .behind(let queued):
                // A kiosk shows what it has (the first picture is always waited for).
                if !waitsForFrames, shown != nil {
                    return shown.map { Shown(buffer: $0.buffer, start: $0.start, end: $0.end) }
                }
                pipeline.waitForPictures(beyond: queued)
            }
        }
    }
}

/// The state the decoding thread and the render thread share, under one lock: the size wanted,
/// a seek asked for, the queue of converted pictures and the buffers free for more.
private final class Pipeline: @unchecked Sendable {
    // @unchecked: `state` is read and written only under `lock`; `decoder` and the thread's own
    // position only by the decoding thread, after `info` was read at start.
    struct Ready {
        var buffer: PixelBuffer
        var start: Double
        var end: Double
    }

    enum Outcome: Equatable {
        case ready, finished
        /// The picture due is not queued yet: wait until more than `queued` pictures are.
        case behind(queued: Int)
    }

    struct State {
        var width = 0
        var height = 0
        /// Bumped by every seek: pictures of an older one are not queued.
        var generation = 0
        var seekTarget: Double?
        var ready: [Ready] = []
        var free: [PixelBuffer] = []
        /// The end of the last picture queued (scene time), or -infinity before any.
        var decodedUpTo = -Double.infinity
        /// No picture follows the queued ones (a video played once, at its end; or a failure).
        var finished = false
        /// The latest time a refresh asked for, when late pictures are dropped (a kiosk): the
        /// decoding thread does not convert a picture that ended before it.
        var clock = -Double.infinity
        var dropped = 0
        var stopping = false
    }

    /// Written by the decoding thread, read under `lock`.
    private var costs = (decodeSeconds: 0.0, convertSeconds: 0.0, decoded: 0, converted: 0)
    var cost: (decodeSeconds: Double, convertSeconds: Double, decoded: Int, converted: Int) {
        lock.withLock { costs }
    }

    let info: VideoInfo
    private let decoder: VideoDecoder
    private let loops: Bool
    private let scaling: VideoScaling
    private let background: UInt32
    let depth: Int
    private let report: (String) -> Void
    /// Condition 0: the decoding thread waits for room, a size or a seek; 1: the render thread
    /// waits for a picture.
    private let lock = ConditionLock(conditions: 2)
    private var state = State()

    init(
        decoder: VideoDecoder, loops: Bool, scaling: VideoScaling, background: UInt32, depth: Int,
        report: @escaping (String) -> Void
    ) {
        info = decoder.info
        self.decoder = decoder
        self.loops = loops && decoder.info.duration > 0
        self.scaling = scaling
        self.background = background
        self.depth = depth
        self.report = report
        state.ready.reserveCapacity(depth + 1)
        state.free.reserveCapacity(depth + 3)
    }

    var dropped: Int { lock.withLock { state.dropped } }

    func hasSize(_ width: Int, _ height: Int) -> Bool {
        lock.withLock { state.width == width && state.height == height }
    }

    /// Whether `time` lies where decoding on cannot reach it soon: before the picture shown, or
    /// far past every picture decoded (or nothing decoded yet and no seek under way).
    func needsSeek(to time: Double, after shown: Ready?) -> Bool {
        lock.withLock {
            if let shown, time < shown.start { return true }
            if state.seekTarget != nil { return false }
            if state.decodedUpTo == -.infinity && state.ready.isEmpty && shown == nil { return true }
            if state.finished { return false }
            return time > max(state.decodedUpTo, shown?.end ?? -.infinity) + VideoPlayback.seekAhead
        }
    }

    /// Asks the decoding thread to start again at `time` for buffers of this size; the queued
    /// pictures are dropped (their buffers reused when the size stays).
    func seek(to time: Double, width: Int, height: Int) {
        lock.withLock {
            if state.width != width || state.height != height {
                state.width = width
                state.height = height
                state.free.removeAll(keepingCapacity: true)
                state.ready.removeAll(keepingCapacity: true)
            } else {
                for picture in state.ready { state.free.append(picture.buffer) }
                state.ready.removeAll(keepingCapacity: true)
            }
            state.generation &+= 1
            state.seekTarget = time
            state.clock = -.infinity
            state.decodedUpTo = -.infinity
            state.finished = false
        }
        lock.broadcast(0)
    }

    /// Moves the queue on to `time`: pictures followed by another that ended before it are
    /// dropped, and the one that holds it (or the first, when nothing is shown yet) replaces
    /// `shown`. The last picture queued, when it has ended too and the stream goes on, is kept
    /// until the next comes (`exact`: it may be the stream's last, which holds), or shown late,
    /// the newest there is (a kiosk whose decoder fell behind).
    func take(at time: Double, shown: inout Ready?, exact: Bool) -> (outcome: Outcome, dropped: Int, took: Bool) {
        var dropped = 0
        var took = false
        let outcome: Outcome = lock.withLock {
            if !exact { state.clock = max(state.clock, time) }
            if state.seekTarget != nil { return .behind(queued: 0) }
            while let first = state.ready.first, first.end <= time, state.ready.count > 1 {
                state.ready.removeFirst()
                state.free.append(first.buffer)
                dropped += 1
            }
            if !exact { state.dropped += dropped }
            if exact, let only = state.ready.first, only.end <= time, !state.finished { return .behind(queued: 1) }
            if let first = state.ready.first, first.start <= time || shown == nil {
                if let old = shown, old.buffer.width == state.width, old.buffer.height == state.height {
                    state.free.append(old.buffer)
                }
                shown = first
                state.ready.removeFirst()
                took = true
            }
            if let current = shown, time >= current.start, time < current.end { return .ready }
            // Finished with nothing shown: no picture ever decoded (the caller shows none).
            if state.ready.isEmpty && state.finished { return .finished }
            if let first = state.ready.first, first.start > time, shown != nil { return .ready }
            return .behind(queued: 0)
        }
        // Room was made in the queue: the decoding thread may be waiting for it.
        if took || dropped > 0 { lock.broadcast(0) }
        return (outcome, dropped, took)
    }

    /// Sleeps until more than `queued` pictures are queued, a seek is done or the stream ended.
    func waitForPictures(beyond queued: Int) {
        lock.wait(on: 1) {
            !state.stopping && state.ready.count <= queued && !(state.finished && state.seekTarget == nil)
        }
    }

    func stop() {
        lock.withLock { state.stopping = true }
        lock.broadcast(0)
        lock.broadcast(1)
    }

    // MARK: The decoding thread

    /// Decodes until stopped: after each seek, pictures from the target on, `depth` ahead.
    func run() {
        var generation = -1
        var offset = 0.0  // the scene time of the stream's start in this play-through
        var skipUntil = -Double.infinity
        var width = 0
        var height = 0
        var emptyPass = true  // no picture since the stream last started: a loop would spin
        // Since the last seek: whether a picture was queued, and the start of the last one skipped
        // (before the target). A video played once and sought past its end shows its last picture.
        var queuedSinceSeek = false
        var lastSkipped: Double?
        while true {
            var seekTarget: Double?
            var stopping = false
            lock.wait(on: 0) {
                !state.stopping && state.seekTarget == nil
                    && (state.width == 0 || state.ready.count >= depth || state.finished)
            }
            lock.withLock {
                stopping = state.stopping
                seekTarget = state.seekTarget
                state.seekTarget = nil
                generation = state.generation
                width = state.width
                height = state.height
            }
            if stopping { return }
            if let target = seekTarget {
                let passes = loops ? (target / info.duration).rounded(.down) : 0
                offset = passes * info.duration
                skipUntil = target
                emptyPass = true
                queuedSinceSeek = false
                lastSkipped = nil
                guard seekDecoder(to: target - offset) else { continue }
            }
            let timing: VideoTiming?
            let decodeStart = threadCPUSeconds()
            do {
                timing = try decoder.advance()
                let spent = threadCPUSeconds() - decodeStart
                lock.withLock {
                    costs.decodeSeconds += spent
                    if timing != nil { costs.decoded += 1 }
                }
            } catch {
                finish(generation, because: error.description)
                continue
            }
            guard let timing else {
                if loops && !emptyPass {
                    offset += info.duration
                    emptyPass = true
                    if seekDecoder(to: 0) { continue }
                }
                if !queuedSinceSeek, let last = lastSkipped {
                    // Every picture ended before the target: back to the last one, which holds.
                    skipUntil = last
                    lastSkipped = nil
                    if seekDecoder(to: last - offset) { continue }
                }
                finish(generation, because: nil)
                continue
            }
            emptyPass = false
            let start = timing.start + offset
            let end = timing.end + offset
            if end <= skipUntil {
                lastSkipped = start
                continue
            }
            // Already late (a kiosk's decoder behind the clock): not converted, so decoding
            // catches up by the conversion's time.
            let late = lock.withLock {
                guard end <= state.clock, state.generation == generation else { return false }
                state.dropped += 1
                return true
            }
            if late { continue }
            guard let buffer = freeBuffer(generation, width, height) else { continue }
            let convertStart = threadCPUSeconds()
            decoder.render(into: buffer.surface, scaling: scaling)
            let converting = threadCPUSeconds() - convertStart
            let queued = lock.withLock {
                costs.convertSeconds += converting
                costs.converted += 1
                guard state.generation == generation else {
                    // A seek came while it was converted: the buffer is free again if it fits.
                    if buffer.width == state.width && buffer.height == state.height { state.free.append(buffer) }
                    return false
                }
                state.ready.append(Ready(buffer: buffer, start: start, end: end))
                state.decodedUpTo = end
                return true
            }
            if queued {
                queuedSinceSeek = true
                lock.broadcast(1)
            }
        }
    }

    private func seekDecoder(to seconds: Double) -> Bool {
        do {
            try decoder.seek(to: seconds)
            return true
        } catch {
            lock.withLock { state.finished = true }
            report(error.description)
            lock.broadcast(1)
            return false
        }
    }

    private func finish(_ generation: Int, because problem: String?) {
        if let problem { report(problem) }
        lock.withLock { if state.generation == generation { state.finished = true } }
        lock.broadcast(1)
    }

    /// A buffer of the wanted size: a free one, or a new one painted with the background (a
    /// `fit` picture's bars stay painted, as pictures only ever cover their own rectangle).
    private func freeBuffer(_ generation: Int, _ width: Int, _ height: Int) -> PixelBuffer? {
        let reused: PixelBuffer?? = lock.withLock {
            guard state.generation == generation else { return .some(nil) }
            return state.free.popLast().map { .some($0) } ?? nil
        }
        switch reused {
        case .some(let buffer?): return buffer
        case .some(nil): return nil  // a seek came in between
        case nil:
            let buffer = PixelBuffer(width: width, height: height)
            let surface = buffer.surface
            for y in 0..<height { surface.row(y).update(repeating: background, count: width) }
            return buffer
        }
    }
}
