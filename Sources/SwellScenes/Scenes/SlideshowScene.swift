import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// `slideshow`: signage. Images (decoded by the caller on demand; this module reads no files) are
/// scaled to fill the screen (or to fit it, between bars) and change on a tap or every `interval`
/// seconds. A tap is a touch that begins while no other finger is down: fingers that land
/// together (a hand, or the benchmark's three fingers) change the picture once, not once each,
/// which would skip pictures never seen. At most three are held, scaled, at a time
/// (`SlideFrames`), the next one decoded and scaled ahead on the picture loader's thread; the folder is listed again at each change, so pictures added to it or removed
/// from it are taken into account, and a picture replaced in place (same name, new content) is
/// decoded again; a single picture that was replaced is revealed over its old self. The next
/// image is revealed through a wave mask: a band centred on the screen whose height grows from 0
/// to 100 % while its two wavy edges advance in phase by pct · 720°, easeOut over 3 s.
public struct SlideshowScene: Scene {
    public static let descriptor = SceneDescriptor(
        name: "slideshow",
        summary: "PNG and JPEG pictures from a folder, changing on tap or timer through a wave-mask reveal",
        parameters: [
            .text(
                "folder", "images",
                "folder of .png/.jpg pictures, shown in name order (relative to the scene file)"),
            .number("interval", 5, in: 0...86400, "seconds between changes (0: taps only)"),
            .number("transition", 3, in: 0.01...600, "seconds of the wave-mask reveal (easeOut)"),
            .number("amplitude", 20, in: 0...10000, "height of the mask's waves, px"),
            .number("wavelength", 300, in: 1...100_000, "length of one wave of the mask's edges, px"),
            .choice(
                "fit", "fill", of: ["fill", "fit"],
                "fill: cover the screen, cropping what overflows; fit: the whole picture, with background bars"),
            .color("background", "#000000", "the bars around pictures that fit, and the screen when none decodes"),
            .choice(
                "reveal", "middle", of: ["middle", "rise"],
                "middle: a wavy band opening from the middle; rise: a wavy edge rising from the bottom (photo-tap)"),
        ],
        make: { settings, media, _ in SlideshowScene(settings, images: media.images) })

    public let background: Color
    let frames: SlideFrames

    public func finishBackgroundWork() { frames.finishPrefetching() }
    public var hasBackgroundWork: Bool { frames.isPrefetching }
    /// How many pictures were decoded and scaled on the render thread (the caller of `render`)
    /// because the loader did not have them ready: the first picture, and those after a jump.
    public var picturesDecodedWhenNeeded: Int { frames.decodedWhenNeeded }
    /// The fingers down (bit `finger % 64`): a touch that begins while one is down is no tap.
    var fingersDown: UInt64 = 0
    /// Lists the pictures again at each change (a folder that may have changed), if it can.
    let relist: (() -> [String]?)?
    let interval: Double
    let transition: Double
    let amplitude: Double
    let wavelength: Double
    /// The reveal rises from the bottom (the tutorial's photo tap) instead of opening from the middle.
    let rises: Bool
    /// The pictures' names as last listed, ascending.
    var names: [String]
    /// The picture shown (nil: there are none) and, while `transitionStart` is set, the one
    /// being revealed over it.
    var current: String?
    var target: String?
    var transitionStart: Double?
    /// While a reveal runs: the frame of `current` as it was before its file was replaced (its
    /// new version is decoded when it next comes round, or revealed now if it is the only one).
    var outgoing: PixelBuffer?
    var nextTimer: Double
    var mask = Path()

    /// `prefetches`: the next picture is decoded ahead on the loader's thread (off: each when it
    /// is needed, on the render thread; the frames are the same bytes either way).
    public init(_ settings: SceneSettings, images: SceneImages, prefetches: Bool = true) {
        background = settings.color("background")
        if settings.text("fit") == "fit" {
            let bars = settings.color("background").opaquePixel
            frames = SlideFrames(decode: images.decode, version: images.version, prefetches: prefetches) {
                scaleImageToFit($0, into: $1, background: bars)
            }
        } else {
            frames = SlideFrames(decode: images.decode, version: images.version, prefetches: prefetches)
        }
        relist = images.relist
        names = images.names
        current = images.names.first
        interval = settings.number("interval")
        transition = settings.number("transition")
        amplitude = settings.number("amplitude")
        wavelength = settings.number("wavelength")
        rises = settings.text("reveal") == "rise"
        nextTimer = interval > 0 ? interval : .infinity
    }

    /// The picture after `name` in the current listing (`picture(after:in:)`).
    func picture(after name: String) -> String? { SwellScenes.picture(after: name, in: names) }

    mutating func change(at time: Double) {
        // The timer moves on whatever happens below (a single picture must not stop the clock).
        nextTimer = interval > 0 ? time + interval : .infinity
        if transitionStart != nil { current = target }  // a change mid-reveal completes the reveal
        transitionStart = nil
        listAgain()
        let onScreen = current.flatMap { frames.held($0) }
        let replaced = frames.dropReplaced()
        outgoing = nil
        guard let shown = current, let next = picture(after: shown) else { return }
        let shownReplaced = replaced.contains(shown)
        // One picture: nothing to change to, unless its file was replaced.
        guard next != shown || shownReplaced else { return }
        if shownReplaced { outgoing = onScreen }
        target = next
        transitionStart = time
    }

    mutating func advance(to time: Double) {
        while nextTimer <= time { change(at: nextTimer) }
        if let start = transitionStart, time >= start + transition {
            current = target
            transitionStart = nil
            outgoing = nil
            // Listed now too, so the picture after this one is known (and prefetched) a whole
            // interval before it is needed, even when it was just added to the folder.
            listAgain()
        }
    }

    /// Takes the folder's current listing, unless it cannot be read or is empty (then the
    /// pictures listed before are kept: the show goes on with what it has).
    mutating func listAgain() {
        if let listed = relist?(), !listed.isEmpty { names = listed }
    }

    public mutating func handle(_ event: TouchEvent) {
        advance(to: event.time)
        let bit: UInt64 = 1 << UInt64(event.finger & 63)
        switch event.phase {
        case .began:
            // A finger beginning again without having ended: ends were lost (another page was
            // shown meanwhile), so the fingers recorded down are forgotten.
            if fingersDown & bit != 0 { fingersDown = 0 }
            if fingersDown == 0 { change(at: event.time) }
            fingersDown |= bit
        case .moved: break
        case .ended: fingersDown &= ~bit
        }
    }

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        advance(to: time)
        guard size.width > 0, size.height > 0 else { return }
        frames.resize(to: size)
        if let old = outgoing, old.width != size.width || old.height != size.height { outgoing = nil }
        if mask.elements.capacity < size.width + 16 { mask.elements.reserveCapacity(size.width + 16) }
        // Nothing decodes: the background shows.
        guard let shown = outgoing ?? decodablePicture(from: &current) else { return }
        var revealed: PixelBuffer?
        if transitionStart != nil {
            revealed = decodablePicture(from: &target)
            // Every other picture is broken: nothing to reveal (but a replaced picture's new
            // version may be revealed over its old one).
            if revealed == nil || (target == current && outgoing == nil) {
                // A replaced picture whose new version does not decode (a copy still being
                // written) stays on screen as it was, and is tried again at the next change.
                if revealed == nil, let old = outgoing, let name = current { frames.reinstate(name, old) }
                revealed = nil
                transitionStart = nil
                outgoing = nil
            }
        }
        let upcoming = revealed == nil ? current : target
        let following = upcoming.flatMap { prefetchCandidate(after: $0) }
        frames.keep(current, revealed == nil ? nil : target, following)
        if let following { frames.prefetch(following, order: names, current: current) }
        ops.append(.image(shown, alpha: 1))
        guard let revealed, let start = transitionStart else { return }
        let pct = TimingCurve.easeOut.value(at: (time - start) / transition)
        buildMask(pct: pct, size: size)
        ops.append(.maskedImage(revealed, mask))
    }

    /// The picture to decode ahead after `name`: the next one, passing over those that failed to
    /// decode this turn.
    func prefetchCandidate(after name: String) -> String? {
        var candidate = picture(after: name)
        for _ in 0..<names.count {
            guard let known = candidate, frames.hasFailed(known) else { break }
            candidate = picture(after: known)
        }
        return candidate
    }

    /// The frame of picture `name`, or of the first one after it that decodes (moving `name`
    /// there); nil if none does.
    func decodablePicture(from name: inout String?) -> PixelBuffer? {
        for _ in 0..<names.count {
            guard let candidate = name else { return nil }
            if let frame = frames.frame(candidate) { return frame }
            name = picture(after: candidate)
        }
        return nil
    }

    /// How many pictures are held scaled to the screen once the background decoding queued so far
    /// is done (at most four, normally three).
    public var heldFrames: Int { frames.heldFrames }

    /// The reveal band at `pct`: height pct · (H + 2A) around the middle, top edge
    /// −a·sin and bottom edge +a·sin of the same phase pct · 4π, a ≤ half the band so the
    /// edges never cross. Sampled every 2 px (chord error < 0.01 px for the default waves).
    mutating func buildMask(pct: Double, size: FrameSize) {
        if rises {
            buildRisingMask(pct: pct, size: size)
            return
        }
        let width = Double(size.width)
        let band = pct * (Double(size.height) + 2 * amplitude)
        let middle = Double(size.height) / 2
        let a = min(amplitude, band / 2)
        let phase = pct * 4 * Double.pi
        let k = 2 * Double.pi / wavelength
        let steps = max(1, size.width / 2)
        mask.removeAll()
        for i in 0...steps {
            let x = width * Double(i) / Double(steps)
            let y = middle - band / 2 + a * sin(k * x + phase)
            if i == 0 { mask.move(to: x, y) } else { mask.line(to: x, y) }
        }
        for i in stride(from: steps, through: 0, by: -1) {
            let x = width * Double(i) / Double(steps)
            mask.line(to: x, middle + band / 2 - a * sin(k * x + phase))
        }
        mask.close()
    }

    /// The tutorial's `WaveMaskModifier`: the mask is the part of the screen below a wave whose
    /// mean line rises from `amplitude` below the bottom (nothing shown) to `amplitude` above the
    /// top (everything) as pct goes 0 → 1, its phase advancing pct · 720°. (The tutorial's second,
    /// half-opaque wave is left out: a mask here is one path, opaque inside.)
    mutating func buildRisingMask(pct: Double, size: FrameSize) {
        let width = Double(size.width)
        let height = Double(size.height)
        let mean = (1 - pct) * (height + 2 * amplitude) - amplitude
        let phase = pct * 4 * Double.pi
        let k = 2 * Double.pi / wavelength
        let steps = max(1, size.width / 2)
        mask.removeAll()
        mask.move(to: 0, height)
        for i in 0...steps {
            let x = width * Double(i) / Double(steps)
            mask.line(to: x, mean + amplitude * sin(k * x + phase))
        }
        mask.line(to: width, height)
        mask.close()
    }

    /// Idle between changes: the picture stands still until the timer (`nextWake`) or a tap, so a
    /// kiosk draws nothing then (it used to redraw the same picture every refresh).
    public func isIdle(at time: Double) -> Bool {
        if time >= nextTimer { return false }  // a change is due
        guard let start = transitionStart else { return true }
        return time >= start + transition
    }

    public func nextWake(after time: Double) -> Double? { nextTimer.isFinite ? nextTimer : nil }
}
