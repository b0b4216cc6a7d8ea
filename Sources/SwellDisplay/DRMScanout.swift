import CDRM
import CSysShims
import SwellRaster
import SwellService
import SwellSystem

// The kernel is reached only through libdrm (CDRM), CSysShims (the crash handler) and
// SwellSystem (descriptors, mappings, poll, the clock): no C library call of its own.

/// One XRGB8888 dumb buffer, mapped, with its framebuffer object.
struct DumbBuffer {
    let handle: UInt32
    let framebufferID: UInt32
    let pitch: Int
    let mapping: MappedMemory
    var memory: UnsafeMutableRawPointer { mapping.base }
}

/// Scan-out and flips of one output: two dumb buffers brought up to the shadow by its damage
/// (rotated), one modeset, then page flips paced by their events (or by the clock, or SetCrtc
/// each frame for drivers without flips), and DirtyFB for the drivers that need it.
/// `DRMPresenter` owns one, with the output's power and hotplug.
final class DRMScanout {
    let card: DRMCard
    let connector: ConnectorInfo
    let crtcID: UInt32
    let mode: DisplayMode
    let rotation: Rotation
    let shadow: PixelBuffer

    private(set) var buffers: [DumbBuffer] = []
    private var backIndex = 0
    private(set) var modeSet = false
    private(set) var flipPending = false
    /// The `completedFlips` count at which the pending flip is done, when it counts as lost, and
    /// the buffer it shows with that frame's damage (for DirtyFB once it is up).
    private var flipTarget = 0
    private var flipDeadline = 0.0
    private var flipShown: (buffer: DumbBuffer, damage: Damage)?
    /// When the frame after the last one may be drawn (after the flip: now, or the clock's
    /// next refresh when the clock paces).
    private(set) var readyAt = -Double.infinity
    /// Flip-completion count, written by the libdrm event callback through `user_data`.
    private let completedFlips = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    private var pacer: FramePacer
    private var dirtyNeeded = true
    /// Whether DirtyFB takes clip rectangles (EINVAL once: no, the whole buffer is named).
    private var dirtyClipsWork = true
    /// Room for one frame's damage as DirtyFB clip rectangles (allocated once).
    private let clips = UnsafeMutablePointer<drmModeClip>.allocate(capacity: Damage.maximumRects)
    /// What each dumb buffer misses of the shadow (buffer age).
    private var damage: ScanoutDamage
    private(set) var lastCopySeconds = 0.0
    private var flipsWork = true

    /// Makes the two buffers (freeing what it made when one fails).
    init(
        card: DRMCard, connector: ConnectorInfo, crtcID: UInt32, mode: DisplayMode, rotation: Rotation,
        shadow: PixelBuffer
    ) throws(KioskError) {
        self.card = card
        self.connector = connector
        self.crtcID = crtcID
        self.mode = mode
        self.rotation = rotation
        self.shadow = shadow
        completedFlips.initialize(to: 0)
        pacer = FramePacer(refreshHz: mode.refreshHz, vblankAvailable: true)
        damage = ScanoutDamage(buffers: 2, width: shadow.width, height: shadow.height)
        do {
            for _ in 0..<2 { buffers.append(try makeDumbBuffer()) }
        } catch {
            freeBuffers()
            throw error
        }
    }

    deinit {
        completedFlips.deallocate()
        clips.deallocate()
    }

    private func makeDumbBuffer() throws(KioskError) -> DumbBuffer {
        let fd = card.fd.rawValue
        var handle: UInt32 = 0
        var pitch: UInt32 = 0
        var size: UInt64 = 0
        var result = drmModeCreateDumbBuffer(
            fd, UInt32(mode.width), UInt32(mode.height), 32, 0, &handle, &pitch, &size)
        guard result == 0 else {
            throw KioskError(
                .io, "\(card.path): cannot create a \(mode.width)x\(mode.height) dumb buffer: \(drmError(result))")
        }
        var framebuffer: UInt32 = 0
        result = drmModeAddFB(fd, UInt32(mode.width), UInt32(mode.height), 24, 32, pitch, handle, &framebuffer)
        guard result == 0 else {
            let error = drmError(result)
            drmModeDestroyDumbBuffer(fd, handle)
            throw KioskError(.io, "\(card.path): cannot add an XRGB8888 framebuffer: \(error)")
        }
        var offset: UInt64 = 0
        result = drmModeMapDumbBuffer(fd, handle, &offset)
        let mapping: MappedMemory
        do throws(Errno) {
            guard result == 0 else { throw drmError(result) }
            mapping = try MappedMemory.map(card.fd, length: Int(size), offset: Int64(offset))
        } catch {
            drmModeRmFB(fd, framebuffer)
            drmModeDestroyDumbBuffer(fd, handle)
            throw KioskError(.io, "\(card.path): cannot map a dumb buffer: \(error)")
        }
        // Start black (a write-only fill; the memory is never read).
        mapping.base.initializeMemory(as: UInt8.self, repeating: 0, count: mapping.length)
        return DumbBuffer(handle: handle, framebufferID: framebuffer, pitch: Int(pitch), mapping: mapping)
    }

    /// Queues the shadow's frame (`frame`: its damage). `dark`: the display is unplugged or
    /// powered down, and nothing goes to it (the clock paces meanwhile).
    func queue(damage frame: Damage, now: Double, dark: Bool) throws(KioskError) {
        lastCopySeconds = 0
        // Only when called out of turn (the loop asks `frameWait` first).
        try waitForFlip()
        // Every buffer misses this frame's damage, also when it is not shown now.
        damage.add(frame)
        readyAt = now
        // Nothing changed: no copy, no flip, no DirtyFB; the picture on screen is this frame.
        // Its display unplugged or powered down: nothing goes to a screen that shows nothing (some
        // drivers stop vblank events then, and every flip would wait for its timeout); the frame
        // is dropped and the clock paces until the display is back (`displayChanged`,
        // `setScreen`), which sets the mode again with the picture on screen.
        if modeSet && (frame.isEmpty || dark) {
            readyAt = pacer.clockDeadline(now: now)
            return
        }
        let back = buffers[backIndex]
        copyMissing(to: backIndex)
        if !modeSet || !flipsWork {
            try setCrtc(back.framebufferID)
            // The first frame is a modeset (no event to wait for); later ones only come here when
            // the driver cannot flip, and then only the clock can pace.
            if modeSet { pacer.vblankUnavailable() }
            markDirty(back, damage: modeSet ? frame : nil)
            modeSet = true
            backIndex ^= 1
            if pacer.usesClock { readyAt = pacer.clockDeadline(now: now) }
            return
        }
        try flip(to: back)
        backIndex ^= 1
        flipShown = (back, frame)
        if flipPending {
            flipDeadline = now + flipTimeout
        } else {
            flipDone(now: now)  // (flips turned out unsupported: the CRTC was set)
        }
    }

    func frameWait(now: Double) throws(KioskError) -> FrameWait {
        if flipPending {
            try readFlipEvents()
            if completedFlips.pointee < flipTarget {
                guard now >= flipDeadline else { return .flip(card.fd, deadline: flipDeadline) }
                kioskWarn("\(card.path): no page-flip event within \(Int(flipTimeout * 1000)) ms")
            }
            flipPending = false
            flipDone(now: now)
        }
        return readyAt <= now ? .ready : .at(readyAt)
    }

    /// The queued frame is on screen (its flip's event came, or never will): DirtyFB for it, and
    /// the next frame may follow at once, or at the clock's next refresh when the clock paces.
    private func flipDone(now: Double) {
        pacer.vblankReported(at: now)
        if let shown = flipShown { markDirty(shown.buffer, damage: shown.damage) }
        flipShown = nil
        readyAt = pacer.usesClock ? pacer.clockDeadline(now: now) : now
    }

    /// How long a flip's event may take before it counts as lost.
    private var flipTimeout: Double { max(0.25, pacer.interval * 4) }

    /// Brings buffer `index` up to the shadow: the rectangles it missed (this frame's damage, and
    /// the frame before's for the back buffer of a flip), rotated, and nothing else.
    private func copyMissing(to index: Int) {
        let started = monotonicSeconds()
        let buffer = buffers[index]
        damage.bringUpToDate(buffer: index) { rect in
            copyToScanout(
                shadow.surface, rotation: rotation, format: .xrgb8888, destination: buffer.memory,
                pitch: buffer.pitch, panelWidth: mode.width, panelHeight: mode.height, region: rect)
        }
        lastCopySeconds = monotonicSeconds() - started
    }

    var pacing: String {
        guard flipsWork else { return "SetCrtc each frame (no page flips), paced by the clock" }
        let paced =
            pacer.usesClock ? ", paced by the clock (flip events came faster than the display refreshes)" : " on vblank"
        return "page flips" + paced
            + (dirtyNeeded ? (dirtyClipsWork ? ", DirtyFB with damage clips" : ", DirtyFB") : "")
    }

    /// Sets the CRTC again with the buffer on screen (the one flipped to last), for a display
    /// that was unplugged or powered down and may need the modeset to show anything.
    func setModeAgain() throws(KioskError) {
        try waitForFlip()
        let onScreen = buffers[backIndex ^ 1]
        try setCrtc(onScreen.framebufferID)
        markDirty(onScreen, damage: nil)
    }

    private func setCrtc(_ framebufferID: UInt32) throws(KioskError) {
        var connectorID = connector.id
        var modeInfo = mode.info
        let result = drmModeSetCrtc(card.fd.rawValue, crtcID, framebufferID, 0, 0, &connectorID, 1, &modeInfo)
        guard result == 0 else {
            let error = drmError(result)
            if error == .accessDenied || error == .notPermitted {
                throw KioskError(
                    .busy, "\(card.path): the display was taken by another DRM master (\(error.message)); stop it")
            }
            throw KioskError(.io, "\(card.path): cannot set mode \(mode.label) on \(connector.name): \(error)")
        }
    }

    /// Queues a flip to `buffer`. EBUSY (a flip still pending, as vmwgfx reports) keeps the frame
    /// and retries after the next event; drivers without flips fall back to setting the CRTC.
    private func flip(to buffer: DumbBuffer) throws(KioskError) {
        var attempts = 0
        while true {
            let result = drmModePageFlip(
                card.fd.rawValue, crtcID, buffer.framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT),
                UnsafeMutableRawPointer(completedFlips))
            if result == 0 {
                flipPending = true
                flipTarget = completedFlips.pointee + 1
                return
            }
            let error = drmError(result)
            if error == .busy && attempts < 10 {
                attempts += 1
                flipPending = true
                flipTarget = completedFlips.pointee + 1
                flipDeadline = monotonicSeconds() + flipTimeout
                try waitForFlip()
                continue
            }
            if error == .invalid || error == .notImplemented || error == .notSupported {
                kioskWarn("\(card.path): page flips are not supported (\(error.name)); setting the CRTC each frame")
                flipsWork = false
                try setCrtc(buffer.framebufferID)
                pacer.vblankUnavailable()
                return
            }
            if error == .accessDenied || error == .notPermitted {
                throw KioskError(.busy, "\(card.path): lost the display to another DRM master (\(error.message))")
            }
            throw KioskError(.io, "\(card.path): page flip failed: \(error)")
        }
    }

    /// Waits (poll, with a timeout) until the pending flip's event arrives, for callers that must
    /// block (`present`, a modeset, restoring). A lost event must not freeze the display forever
    /// (kmscon's stuck flag), so after the timeout the flip counts as done.
    func waitForFlip() throws(KioskError) {
        while flipPending {
            let now = monotonicSeconds()
            let wait = try frameWait(now: now)
            guard case .flip(_, let deadline) = wait else { return }
            // This runs every frame of `present`: waitReadable allocates nothing.
            if !card.fd.waitReadable(timeoutMilliseconds: Int32((deadline - now) * 1000) + 1),
                StopSignals.received != nil
            {
                flipPending = false
                flipDone(now: monotonicSeconds())
            }
        }
    }

    /// Hands every DRM event already readable on the card to its presenter's counter (`user_data`:
    /// the card is shared, so this may count another output's flip, which that output then
    /// finds done). Never blocks.
    private func readFlipEvents() throws(KioskError) {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, _, _, userData in
            userData?.assumingMemoryBound(to: Int.self).pointee += 1
        }
        while card.fd.waitReadable(timeoutMilliseconds: 0) {
            if drmHandleEvent(card.fd.rawValue, &context) != 0 {
                let error = Errno.current
                if error == .interrupted { continue }
                if error == .wouldBlock { return }
                throw KioskError(.io, "\(card.path): reading DRM events failed: \(error)")
            }
        }
    }

    /// virtio-gpu, udl and command-mode panels only update after DirtyFB; others answer ENOSYS.
    /// With `damage`, only its rectangles (panel coordinates) are named; a driver that refuses
    /// clip rectangles (EINVAL) is told the whole buffer from then on.
    private func markDirty(_ buffer: DumbBuffer, damage: Damage?) {
        guard dirtyNeeded else { return }
        var count = 0
        if let damage, dirtyClipsWork {
            for rect in damage.rects {
                let panel = rotation.panelRect(
                    ofPicture: rect, logicalWidth: shadow.width, logicalHeight: shadow.height)
                clips[count] = drmModeClip(
                    x1: UInt16(panel.x0), y1: UInt16(panel.y0), x2: UInt16(panel.x1), y2: UInt16(panel.y1))
                count += 1
            }
        }
        var result = drmModeDirtyFB(card.fd.rawValue, buffer.framebufferID, count > 0 ? clips : nil, UInt32(count))
        if result != 0 && count > 0 && drmError(result) == .invalid {
            dirtyClipsWork = false
            result = drmModeDirtyFB(card.fd.rawValue, buffer.framebufferID, nil, 0)
        }
        if result != 0 {
            let error = drmError(result)
            dirtyNeeded = false
            if error != .notImplemented {
                kioskWarn("\(card.path): DirtyFB failed (\(error)); not calling it again")
            }
        }
    }

    /// Unmaps and frees the buffers (the CRTC must no longer show them).
    func freeBuffers() {
        let fd = card.fd.rawValue
        for buffer in buffers {
            buffer.mapping.unmap()
            drmModeRmFB(fd, buffer.framebufferID)
            drmModeDestroyDumbBuffer(fd, buffer.handle)
        }
        buffers = []
    }
}

/// libdrm returns either -1 with errno set or a negative errno; both become an `Errno`.
func drmError(_ result: Int32) -> Errno {
    result < -1 ? Errno(rawValue: -result) : Errno.current
}
