import Dispatch
import SwellRaster
import SwellSystem

/// A slideshow's pictures scaled to the screen, a few at a time: the one shown, the one being
/// revealed and the one after it. The one after is decoded and scaled on a background queue
/// while the current one is on screen, so a change rarely waits for the decoder (a 12-megapixel
/// JPEG takes 0.07–0.18 s here), and memory stays at three frames however
/// many pictures the folder holds (it used to keep every picture, at its own size and fitted).
/// Frames are kept by picture name, so they survive the folder being listed again, with the
/// picture's version when it was decoded, so a picture replaced in place is decoded again.
///
/// The frames do not depend on timing: a picture that is needed but not ready is waited for,
/// never skipped, so dumps give the same bytes however fast the decoder runs. A picture that
/// fails to decode (a file truncated, or being replaced, after start-up) is skipped, and tried
/// again on its next turn; `SceneImages.decode` is where the caller reports it.
final class SlideFrames: @unchecked Sendable {
    // @unchecked: `decode` and the scaling run only on `queue`, which is serial; `state` is read
    // and written only under `lock`. (Synchronization's Mutex would want the frames,
    // PixelBuffers, to be Sendable, which the raster module does not promise.)
    private let decode: (String, FrameSize) throws -> PixelBuffer
    private let version: ((String) -> PictureVersion?)?
    /// Scales a decoded picture into a frame-sized buffer (to fill, or to fit with bars).
    private let place: (PixelSurface, PixelSurface) -> Void
    private let queue = DispatchQueue(label: "swell.slideshow.decode")
    private let lock = Lock()
    private var state = State()

    struct Slot {
        var name: String
        /// nil while the background queue has it.
        var frame: PixelBuffer?
        /// The picture's version just before it was decoded.
        var version: PictureVersion?
    }

    struct State {
        var size = FrameSize(width: 0, height: 0)
        var wanted: (String?, String?, String?) = (nil, nil, nil)
        var slots: [Slot] = []
        /// Pictures that failed to decode since the wanted set last changed (so each broken
        /// picture is tried once a turn, not once a frame).
        var failed: [String] = []

        func holds(_ name: String) -> Bool { slots.contains { $0.name == name } }
        func wants(_ name: String) -> Bool { wanted.0 == name || wanted.1 == name || wanted.2 == name }
    }

    init(
        decode: @escaping (String, FrameSize) throws -> PixelBuffer,
        version: ((String) -> PictureVersion?)? = nil,
        place: @escaping (PixelSurface, PixelSurface) -> Void = { scaleImageToFill($0, into: $1) }
    ) {
        self.decode = decode
        self.version = version
        self.place = place
        // Three wanted frames plus one demanded while a broken picture is skipped: no growth later.
        state.slots.reserveCapacity(4)
        state.failed.reserveCapacity(4)
    }

    private func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { body(&state) }
    }

    /// The frame size; a new size drops every frame (they are scaled again on demand).
    func resize(to size: FrameSize) {
        withLock { state in
            guard state.size != size else { return }
            state.size = size
            state.slots.removeAll(keepingCapacity: true)
        }
    }

    /// Keeps the frames of these pictures and drops the others.
    func keep(_ first: String?, _ second: String?, _ third: String?) {
        withLock { state in
            guard state.wanted != (first, second, third) else { return }
            state.wanted = (first, second, third)
            state.slots.removeAll { $0.name != first && $0.name != second && $0.name != third }
            state.failed.removeAll(keepingCapacity: true)
        }
    }

    /// Drops the frames of pictures whose version changed since they were decoded (a file
    /// rewritten or replaced under the same name), so they are decoded again when next needed
    /// (even if they failed this turn), and returns their names. Versions are read outside the
    /// lock: they may ask the file system.
    func dropReplaced() -> [String] {
        guard let version else { return [] }
        let held = withLock { state in state.slots.compactMap { $0.frame == nil ? nil : ($0.name, $0.version) } }
        let replaced = held.filter { version($0.0) != $0.1 }
        guard !replaced.isEmpty else { return [] }
        withLock { state in
            state.slots.removeAll { slot in
                slot.frame != nil && replaced.contains { $0.0 == slot.name && $0.1 == slot.version }
            }
            // A new version deserves a new try, even if the last one failed this turn.
            state.failed.removeAll { name in replaced.contains { $0.0 == name } }
        }
        return replaced.map(\.0)
    }

    /// Holds `frame` as picture `name`'s, of an unknown version (so `dropReplaced` drops it at the
    /// next change, and the picture is decoded again then).
    func reinstate(_ name: String, _ frame: PixelBuffer) {
        withLock { state in
            state.slots.removeAll { $0.name == name }
            state.slots.append(Slot(name: name, frame: frame, version: nil))
        }
    }

    /// The frame of picture `name` if it is held (never decodes).
    func held(_ name: String) -> PixelBuffer? { withLock { state in state.slots.first { $0.name == name }?.frame } }

    /// Whether picture `name` failed to decode since the wanted set last changed.
    func hasFailed(_ name: String) -> Bool { withLock { state in state.failed.contains(name) } }

    /// Starts decoding picture `name` in the background unless it is held, queued or broken. If it
    /// turns out broken, the pictures after it in `order` are tried in turn (never `current`), the
    /// first that decodes taking its place as the third wanted frame: a broken next picture does
    /// not make the change wait for the decoder.
    /// Waits until the background queue has decoded what it was given (start-up: a benchmark
    /// starts its timed frames with the next picture ready, as a kiosk has it seconds later).
    func finishPrefetching() { queue.sync {} }

    func prefetch(_ name: String, order: [String], current: String?) {
        let start = withLock { state in
            guard !state.failed.contains(name), !state.holds(name) else { return false }
            state.slots.append(Slot(name: name, frame: nil))
            return true
        }
        if start { queue.async { self.prefetchChain(from: name, order: order, current: current) } }
    }

    private func prefetchChain(from first: String, order: [String], current: String?) {
        var name = first
        for _ in 0..<order.count {
            load(name, demanded: false)
            guard hasFailed(name), let next = picture(after: name, in: order), next != current, next != first else {
                return
            }
            let proceed = withLock { state in
                // Only while the slideshow still wants the broken one next.
                guard state.wanted.2 == name, !state.holds(next), !state.failed.contains(next) else { return false }
                state.wanted.2 = next
                state.slots.append(Slot(name: next, frame: nil))
                return true
            }
            guard proceed else { return }
            name = next
        }
    }

    /// Picture `name` scaled to the current size: held, waited for if the background queue has
    /// it, or decoded now. nil if it cannot be decoded.
    func frame(_ name: String) -> PixelBuffer? {
        let known = withLock { state in (state.slots.first { $0.name == name }?.frame, state.failed.contains(name)) }
        if known.0 != nil || known.1 { return known.0 }
        // Runs after any queued job (the queue is serial), so a prefetch of `name` has finished.
        queue.sync { load(name, demanded: true) }
        return withLock { state in state.slots.first { $0.name == name }?.frame }
    }

    /// How many scaled frames are held once the background work queued so far is done (for tests
    /// and diagnostics).
    var heldFrames: Int {
        finishPrefetching()
        return withLock { state in state.slots.reduce(0) { $0 + ($1.frame == nil ? 0 : 1) } }
    }

    /// Decodes and scales picture `name` (on `queue`). A prefetch's result is kept only if the
    /// picture is still wanted at the same size; a demanded one is always kept (the next `keep`
    /// drops it when it is no longer shown).
    private func load(_ name: String, demanded: Bool) {
        let size: FrameSize? = withLock { state in
            let done = state.slots.contains { $0.name == name && $0.frame != nil }
            // A prefetch the slideshow has moved past (taps faster than the decoder) is dropped.
            let stale = !demanded && !state.wants(name)
            let empty = state.size.width <= 0 || state.size.height <= 0
            return state.failed.contains(name) || done || stale || empty ? nil : state.size
        }
        guard let size else { return }
        // Read before the pixels, so a file replaced while it is decoded is seen as changed.
        let stamp = version?(name)
        let fitted: PixelBuffer?
        do {
            let picture = try decode(name, size)
            let buffer = PixelBuffer(width: size.width, height: size.height)
            place(picture.surface, buffer.surface)
            fitted = buffer
        } catch {
            fitted = nil
        }
        withLock { state in
            let slot = state.slots.firstIndex { $0.name == name }
            guard let fitted, state.size == size, demanded || state.wants(name) else {
                if fitted == nil { state.failed.append(name) }
                if let slot { state.slots.remove(at: slot) }
                return
            }
            if let slot {
                state.slots[slot].frame = fitted
                state.slots[slot].version = stamp
            } else {
                state.slots.append(Slot(name: name, frame: fitted, version: stamp))
            }
        }
    }
}
