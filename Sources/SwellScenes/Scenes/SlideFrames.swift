import SwellRaster
import SwellSystem

/// A slideshow's pictures scaled to the screen, a few at a time: the one shown, the one being
/// revealed and the one after it. The one after is decoded and scaled on the picture loader's
/// thread (`PictureLoader`) as soon as the one before it is on screen, so a change finds it
/// ready (a 12-megapixel JPEG takes 0.07–0.18 s here, a 1080p PNG 20–60 ms: three or more
/// frames of 60 Hz), and memory stays at three frames however many pictures the folder holds
/// (it used to keep every picture, at its own size and fitted). Frames are kept by picture
/// name, so they survive the folder being listed again, with the picture's version when it was
/// decoded, so a picture replaced in place is decoded again. A frame that leaves is kept as the
/// spare that the next picture is scaled into (if nothing else still refers to it), so a change
/// allocates no frame and frees none on the render thread.
///
/// The frames do not depend on timing. The rule: the content update at time T that needs a
/// picture takes it if the loader has finished it, waits for (joins) the loader if it has it
/// queued or in hand, and otherwise decodes and scales it then, on the calling thread (the first
/// frame, a jump past the picture decoded ahead: several taps in one frame, or a picture that
/// was not next). A picture is never skipped for being late, so dumps and renders give the same
/// bytes however fast the decoder runs; a live kiosk started the loader seconds before the
/// change, so the join does not wait. A picture that fails to decode (a file truncated, or being
/// replaced, after start-up) is skipped, and tried again on its next turn;
/// `SceneImages.decode` is where the caller reports it.

final class SlideFrames: @unchecked Sendable {
    // @unchecked: `decode` and the scaling run under `decoding` (one at a time, on the loader's
    // thread or the caller's); `state` is read and written only under `lock`. (Synchronization's
    // Mutex would want the frames, PixelBuffers, to be Sendable, which the raster module does not
    // promise.)
    private let decode: (String, FrameSize) throws -> PixelBuffer
    private let version: ((String) -> PictureVersion?)?
    /// Scales a decoded picture into a frame-sized buffer (to fill, or to fit with bars).
    private let place: (PixelSurface, PixelSurface) -> Void
    /// Off: nothing is decoded ahead, every picture when it is needed (tests compare the two).
    private let prefetches: Bool
    private let loader = PictureLoader.shared
    private let lock = Lock()
    /// Held while a picture is decoded and scaled: `SceneImages.decode` is never called twice at a time.
    private let decoding = Lock()
    private var state = State()

    struct Slot {
        var name: String
        /// nil while the loader has it.
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
        /// Jobs given to the loader and not finished.
        var queued = 0
        /// A frame that left (the next picture is scaled into it if nothing else refers to it).
        var spare: PixelBuffer?
        /// Pictures decoded on the calling thread because the loader did not have them.
        var decodedWhenNeeded = 0

        /// Keeps the frame of a slot that leaves as the spare (one at most).
        mutating func retire(_ slot: Slot) {
            if let frame = slot.frame, spare == nil, frame.width == size.width, frame.height == size.height {
                spare = frame
            }
        }

        /// Drops the slots `leaving` picks, their frames kept as the spare.
        mutating func drop(where leaving: (Slot) -> Bool) {
            for slot in slots where leaving(slot) { retire(slot) }
            slots.removeAll(where: leaving)
        }

        func holds(_ name: String) -> Bool { slots.contains { $0.name == name } }
        func wants(_ name: String) -> Bool { wanted.0 == name || wanted.1 == name || wanted.2 == name }
    }

    init(
        decode: @escaping (String, FrameSize) throws -> PixelBuffer,
        version: ((String) -> PictureVersion?)? = nil, prefetches: Bool = true,
        place: @escaping (PixelSurface, PixelSurface) -> Void = { scaleImageToFill($0, into: $1) }
    ) {
        self.decode = decode
        self.version = version
        self.prefetches = prefetches
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
            state.spare = nil
        }
    }

    /// Keeps the frames of these pictures and drops the others.
    func keep(_ first: String?, _ second: String?, _ third: String?) {
        withLock { state in
            guard state.wanted != (first, second, third) else { return }
            state.wanted = (first, second, third)
            state.drop { $0.name != first && $0.name != second && $0.name != third }
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

    /// Waits until the loader has done every job this slideshow gave it (start-up: a benchmark
    /// starts its timed frames with the next picture ready, as a kiosk has it seconds later).
    func finishPrefetching() { loader.wait { withLock { $0.queued > 0 } } }

    /// Whether the loader has jobs of this slideshow not yet done.
    var isPrefetching: Bool { withLock { $0.queued > 0 } }

    /// How many pictures were decoded on the calling thread (the render thread) because the
    /// loader did not have them: the first, and those after a jump. Diagnostics and tests.
    var decodedWhenNeeded: Int { withLock { $0.decodedWhenNeeded } }

    /// Starts decoding picture `name` on the loader's thread unless it is held, queued or broken.
    /// If it turns out broken, the pictures after it in `order` are tried in turn (never
    /// `current`), the first that decodes taking its place as the third wanted frame: a broken
    /// next picture does not make the change wait for the decoder.
    func prefetch(_ name: String, order: [String], current: String?) {
        guard prefetches else { return }
        let start = withLock { state in
            guard !state.failed.contains(name), !state.holds(name) else { return false }
            state.slots.append(Slot(name: name, frame: nil))
            state.queued += 1
            return true
        }
        guard start else { return }
        let queued = loader.submit {
            self.prefetchChain(from: name, order: order, current: current)
            self.withLock { $0.queued -= 1 }
        }
        // No loader thread (the thread limit): the picture is decoded when needed instead.
        if !queued {
            withLock { state in
                state.queued -= 1
                state.slots.removeAll { $0.name == name && $0.frame == nil }
            }
        }
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

    /// Picture `name` scaled to the current size: held, waited for if the loader has it (queued
    /// or in hand), or decoded now on the calling thread. nil if it cannot be decoded.
    func frame(_ name: String) -> PixelBuffer? {
        func known(_ state: State) -> (PixelBuffer?, Bool) {
            (state.slots.first { $0.name == name }?.frame, state.failed.contains(name))
        }
        func loading(_ state: State) -> Bool {
            state.queued > 0 && state.slots.contains { $0.name == name && $0.frame == nil }
        }
        var now = withLock { state in (known(state), loading(state)) }
        if now.1 {
            // The join: the content update waits for the picture the loader has in hand.
            loader.wait { withLock { loading($0) } }
            now.0 = withLock { known($0) }
        }
        if now.0.0 != nil || now.0.1 { return now.0.0 }
        load(name, demanded: true)
        return withLock { state in state.slots.first { $0.name == name }?.frame }
    }

    /// How many scaled frames are held once the loader's jobs given so far are done (for tests
    /// and diagnostics; the spare is not counted).
    var heldFrames: Int {
        finishPrefetching()
        return withLock { state in state.slots.reduce(0) { $0 + ($1.frame == nil ? 0 : 1) } }
    }

    /// Decodes and scales picture `name`: on the loader's thread (a prefetch) or the caller's (a
    /// demanded one), one at a time. A prefetch's result is kept only if the picture is still
    /// wanted at the same size; a demanded one is always kept (the next `keep` drops it when it
    /// is no longer shown).
    private func load(_ name: String, demanded: Bool) {
        decoding.withLock { loadDecoding(name, demanded: demanded) }
    }

    private func loadDecoding(_ name: String, demanded: Bool) {
        let size: FrameSize? = withLock { state in
            let done = state.slots.contains { $0.name == name && $0.frame != nil }
            // A prefetch the slideshow has moved past (taps faster than the decoder) is dropped.
            let stale = !demanded && !state.wants(name)
            let empty = state.size.width <= 0 || state.size.height <= 0
            if stale { state.slots.removeAll { $0.name == name && $0.frame == nil } }
            return state.failed.contains(name) || done || stale || empty ? nil : state.size
        }
        guard let size else { return }
        // Read before the pixels, so a file replaced while it is decoded is seen as changed.
        let stamp = version?(name)
        let fitted: PixelBuffer?
        do {
            let picture = try decode(name, size)
            let buffer = frameBuffer(size)
            place(picture.surface, buffer.surface)
            fitted = buffer
        } catch {
            fitted = nil
        }
        withLock { state in
            if demanded { state.decodedWhenNeeded += 1 }
            let slot = state.slots.firstIndex { $0.name == name }
            guard let fitted, state.size == size, demanded || state.wants(name) else {
                if fitted == nil { state.failed.append(name) }
                if let slot { state.slots.remove(at: slot) }
                return
            }
            if let slot {
                state.retire(state.slots[slot])
                state.slots[slot].frame = fitted
                state.slots[slot].version = stamp
            } else {
                state.slots.append(Slot(name: name, frame: fitted, version: stamp))
            }
        }
    }

    /// A frame-sized buffer to scale a picture into: the spare if nothing else refers to it any
    /// more (no display list, no frame on its way out), else a new one. Every pixel is written
    /// by `place`, so what the spare held does not show.
    private func frameBuffer(_ size: FrameSize) -> PixelBuffer {
        let reused: PixelBuffer? = withLock { state in
            var spare: PixelBuffer? = nil
            swap(&spare, &state.spare)
            guard isKnownUniquelyReferenced(&spare), let spare, spare.width == size.width,
                spare.height == size.height
            else { return nil }
            return spare
        }
        return reused ?? PixelBuffer(width: size.width, height: size.height)
    }
}
