import CDRM
import CSysShims
import SwellRaster
import SwellSystem

// The kernel is reached only through libdrm (CDRM), CSysShims (the crash handler) and
// SwellSystem (descriptors, mappings, poll, the clock): no C library call of its own.

/// What `DRMPresenter` should drive: a card path (nil: the first with a connected connector),
/// a connector name (nil: the first connected) and a mode (nil: the preferred one).
public struct DRMSelection: Sendable {
    public var devicePath: String?
    public var connectorName: String?
    public var mode: ModeRequest?

    public init(devicePath: String? = nil, connectorName: String? = nil, mode: ModeRequest? = nil) {
        self.devicePath = devicePath
        self.connectorName = connectorName
        self.mode = mode
    }
}

/// One output of several on a card: its connector, mode (nil: preferred) and rotation.
public struct DRMOutputRequest: Sendable, Equatable {
    public var connectorName: String
    public var mode: ModeRequest?
    public var rotation: Rotation

    public init(connectorName: String, mode: ModeRequest? = nil, rotation: Rotation = .none) {
        self.connectorName = connectorName
        self.mode = mode
        self.rotation = rotation
    }
}

/// One XRGB8888 dumb buffer, mapped, with its framebuffer object.
struct DumbBuffer {
    let handle: UInt32
    let framebufferID: UInt32
    let pitch: Int
    let mapping: MappedMemory
    var memory: UnsafeMutableRawPointer { mapping.base }
}

/// Presents through DRM/KMS: two dumb buffers, one modeset, then page flips paced by their events.
public final class DRMPresenter: Presenter {
    public let display: DisplayInfo
    public let rotation: Rotation
    public let shadow: PixelBuffer
    public let card: DRMCard
    public let connector: ConnectorInfo
    public let mode: DisplayMode
    public let crtcID: UInt32

    private var buffers: [DumbBuffer] = []
    private var backIndex = 0
    private var modeSet = false
    private var flipPending = false
    /// The `completedFlips` count at which the pending flip is done, when it counts as lost, and
    /// the buffer it shows with that frame's damage (for DirtyFB once it is up).
    private var flipTarget = 0
    private var flipDeadline = 0.0
    private var flipShown: (buffer: DumbBuffer, damage: Damage)?
    /// When the frame after the last one may be drawn (after the flip: now, or the clock's
    /// next refresh when the clock paces).
    private var readyAt = -Double.infinity
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
    public private(set) var lastCopySeconds = 0.0
    private var flipsWork = true
    private var saved: drmModeCrtc?
    private var restored = false
    /// Our connector at the last look (start-up or hotplug): connected, and the modes it offered.
    private var lastSeen: (connected: Bool, modes: [DisplayMode])
    /// Its display was unplugged while running (not one chosen disconnected at start-up, as a
    /// monitor whose hotplug detection is broken may be, which is driven all the same).
    private var unplugged = false
    /// Its power turned off on request (`setScreen(on: false)`).
    private var screenOff = false

    /// Opens the card, claims the display and saves what it showed. Throws with the fix on failure.
    public convenience init(_ selection: DRMSelection, rotation: Rotation) throws(KioskError) {
        let (card, connector) = try DRMPresenter.pickCardAndConnector(selection)
        guard let crtc = card.crtc(for: connector) else {
            throw KioskError(.noConnector, "\(card.path): no display controller (CRTC) can drive \(connector.name)")
        }
        try self.init(
            card: card, connector: connector, crtcID: crtc,
            mode: try DRMPresenter.pickMode(connector, selection.mode, card: card), rotation: rotation)
    }

    /// Drives one output of a card opened already (one of several heads: each has its own CRTC,
    /// buffers, flips and pacing; the card, its descriptor and DRM master are shared).
    public init(
        card: DRMCard, connector: ConnectorInfo, crtcID: UInt32, mode: DisplayMode, rotation: Rotation
    ) throws(KioskError) {
        self.rotation = rotation
        self.card = card
        self.connector = connector
        self.mode = mode
        self.crtcID = crtcID
        lastSeen = (connector.isConnected, connector.modes)
        completedFlips.initialize(to: 0)
        pacer = FramePacer(refreshHz: mode.refreshHz, vblankAvailable: true)
        display = DisplayInfo(
            device: card.name, output: connector.name, panelWidth: mode.width, panelHeight: mode.height,
            refreshHz: mode.refreshHz, backend: "drm")
        let logical = rotation.logicalSize(panelWidth: mode.width, panelHeight: mode.height)
        shadow = PixelBuffer(width: logical.width, height: logical.height)
        damage = ScanoutDamage(buffers: 2, width: logical.width, height: logical.height)

        try card.claimMaster()
        if let original = drmModeGetCrtc(card.fd.rawValue, crtcID) {
            saved = original.pointee
            drmModeFreeCrtc(original)
            armCrashRestore()
        }
        do {
            for _ in 0..<2 { buffers.append(try makeDumbBuffer()) }
        } catch {
            restore()
            throw error
        }
    }

    deinit {
        restore()
        completedFlips.deallocate()
        clips.deallocate()
    }

    // MARK: opening

    /// Opens one presenter per output of `card`, each on a CRTC of its own; on failure the ones
    /// opened already are restored.
    public static func openOutputs(card: DRMCard, _ outputs: [DRMOutputRequest]) throws(KioskError)
        -> [DRMPresenter]
    {
        var connectors: [ConnectorInfo] = []
        for output in outputs {
            let connector = try pickConnector(card, named: output.connectorName)
            guard !connectors.contains(where: { $0.id == connector.id }) else {
                throw KioskError(.usage, "\(card.path): \(connector.name) is named twice; one output shows one scene")
            }
            connectors.append(connector)
        }
        let crtcs = try card.assignCRTCs(for: connectors)
        var opened: [DRMPresenter] = []
        do {
            for (index, output) in outputs.enumerated() {
                let mode = try pickMode(connectors[index], output.mode, card: card)
                opened.append(
                    try DRMPresenter(
                        card: card, connector: connectors[index], crtcID: crtcs[index], mode: mode,
                        rotation: output.rotation))
            }
        } catch {
            for presenter in opened.reversed() { presenter.restore() }
            throw error
        }
        return opened
    }

    private static func pickCardAndConnector(_ selection: DRMSelection) throws(KioskError) -> (DRMCard, ConnectorInfo) {
        if let path = selection.devicePath {
            let card = try DRMCard(path: path.hasPrefix("/") ? path : "/dev/dri/" + path)
            return (card, try pickConnector(card, named: selection.connectorName))
        }
        let paths = DRMCard.devicePaths()
        guard !paths.isEmpty else {
            throw KioskError(
                .noDevice,
                "no DRM device in /dev/dri; load the display's KMS driver (in QEMU: bochs for -vga std, "
                    + "virtio_gpu for virtio-gpu-pci) or use --output fbdev")
        }
        var firstError: KioskError?
        for path in paths {
            do {
                let card = try DRMCard(path: path)
                return (card, try pickConnector(card, named: selection.connectorName))
            } catch {
                if firstError == nil || firstError?.kind == .noDevice { firstError = error }
            }
        }
        throw firstError!
    }

    private static func pickConnector(_ card: DRMCard, named name: String?) throws(KioskError) -> ConnectorInfo {
        let summary = card.connectors.map { "\($0.name) (\($0.status))" }.joined(separator: ", ")
        if let name {
            guard let connector = card.connectors.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw KioskError(
                    .noConnector,
                    "\(card.path): no connector named \(name); it has \(summary.isEmpty ? "none" : summary)")
            }
            guard connector.isConnected || !connector.modes.isEmpty else {
                throw KioskError(
                    .displayDisconnected, "\(card.path): \(connector.name) is \(connector.status); plug a display in")
            }
            return connector
        }
        guard let connector = card.connectors.first(where: { $0.isConnected && !$0.modes.isEmpty }) else {
            throw KioskError(
                .displayDisconnected,
                "\(card.path) (\(card.driver)): no connected display (connectors: \(summary.isEmpty ? "none" : summary)); "
                    + "plug a display in or pick another card with --device")
        }
        return connector
    }

    private static func pickMode(_ connector: ConnectorInfo, _ request: ModeRequest?, card: DRMCard) throws(KioskError)
        -> DisplayMode
    {
        guard let request else {
            guard let mode = connector.defaultMode(shownNow: card.modeShown(on: connector)) else {
                throw KioskError(.noConnector, "\(card.path): \(connector.name) offers no modes")
            }
            return mode
        }
        let matching = connector.modes.filter(request.matches)
        guard let best = matching.first(where: \.isPreferred) ?? matching.max(by: { $0.refreshHz < $1.refreshHz })
        else {
            var offered: [String] = []
            for mode in connector.modes where !offered.contains(mode.label) { offered.append(mode.label) }
            throw KioskError(
                .modeNotOffered,
                "\(card.path): \(connector.name) does not offer \(request.width)x\(request.height)"
                    + (request.refreshHz.map { "@\($0)" } ?? "") + "; it offers " + offered.joined(separator: " "))
        }
        return best
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

    private func armCrashRestore() {
        guard var original = saved else { return }
        let armed = swell_crash_restore_crtc(
            card.fd.rawValue, original.crtc_id, original.buffer_id, original.x, original.y, connector.id,
            &original.mode, original.mode_valid != 0 ? 1 : 0)
        if armed != 0 {
            kioskWarn("\(connector.name): more than \(SWELL_CRASH_CRTCS) outputs; a crash would not restore this one")
        }
    }

    // MARK: presenting

    public func present(damage frame: Damage) throws(KioskError) {
        try queue(damage: frame, now: monotonicSeconds())
        try waitForFlip()
        sleepUntil(monotonic: readyAt)
    }

    public func queue(damage frame: Damage, now: Double) throws(KioskError) {
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
        if modeSet && (frame.isEmpty || unplugged || screenOff) {
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

    public func frameWait(now: Double) throws(KioskError) -> FrameWait {
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

    public var isShowing: Bool { !unplugged }

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

    public var pacing: String {
        guard flipsWork else { return "SetCrtc each frame (no page flips), paced by the clock" }
        let paced =
            pacer.usesClock ? ", paced by the clock (flip events came faster than the display refreshes)" : " on vblank"
        return "page flips" + paced
            + (dirtyNeeded ? (dirtyClipsWork ? ", DirtyFB with damage clips" : ", DirtyFB") : "")
    }

    /// After a hotplug: re-reads the card; keeps running when our display went away, sets the CRTC
    /// again (with the picture on screen) when one is back, and throws when the display now
    /// connected does not offer our mode (a restart, as the kiosk service does, takes its mode).
    public func displayChanged() throws(KioskError) {
        do {
            try card.reload()
        } catch {
            kioskWarn("\(card.path): display hotplug, but the card could not be read again (\(error)); carrying on")
            return
        }
        let now = card.connectors.first { $0.id == connector.id }
        let change = DisplayChange.after(lastSeen, now: now.map { ($0.isConnected, $0.modes) }, mode: mode)
        lastSeen = (now?.isConnected ?? false, now?.modes ?? [])
        switch change {
        case .none:
            return
        case .disconnected:
            unplugged = true
            kioskWarn(
                "\(connector.name) disconnected; still running: the picture comes back when a display is plugged in")
        case .reconnected:
            unplugged = false
            // Turned off for the night: the mode is set again when it is turned on.
            guard modeSet, !buffers.isEmpty, !screenOff else { return }
            try setModeAgain()
            kioskWarn("\(connector.name) connected; mode \(mode.label) set again")
        case .modeGone(let offered):
            throw KioskError(
                .noConnector,
                "\(card.path): the display now on \(connector.name) does not offer \(mode.label) (it offers "
                    + offered.joined(separator: " ")
                    + "); start swell again to use its mode (the kiosk service restarts it)")
        }
    }

    /// DPMS through the connector's "DPMS" property (atomic drivers map it to the CRTC's ACTIVE):
    /// off powers the display down and stops scan-out; on powers it up and sets the mode again
    /// with the last frame shown (a monitor asleep for a night may want the modeset, as one
    /// plugged in again does).
    public func setScreen(on: Bool) throws(KioskError) -> Bool {
        guard try setPower(on: on) else { return false }
        if on && modeSet && !unplugged && !buffers.isEmpty { try setModeAgain() }
        return true
    }

    /// Sets the CRTC again with the buffer on screen (the one flipped to last), for a display
    /// that was unplugged or powered down and may need the modeset to show anything.
    private func setModeAgain() throws(KioskError) {
        try waitForFlip()
        let onScreen = buffers[backIndex ^ 1]
        try setCrtc(onScreen.framebufferID)
        markDirty(onScreen, damage: nil)
    }

    /// Sets the connector's DPMS property; false if it has none.
    private func setPower(on: Bool) throws(KioskError) -> Bool {
        guard let property = connectorPropertyID(named: "DPMS") else { return false }
        try waitForFlip()
        let value = UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)
        let result = drmModeConnectorSetProperty(card.fd.rawValue, connector.id, property, value)
        guard result == 0 else {
            throw KioskError(
                .io, "\(card.path): cannot turn \(connector.name) \(on ? "on" : "off") (DPMS): \(drmError(result))")
        }
        screenOff = !on
        return true
    }

    /// The id of our connector's property `name`, or nil if it has none.
    private func connectorPropertyID(named name: String) -> UInt32? {
        let fd = card.fd.rawValue
        guard let properties = drmModeObjectGetProperties(fd, connector.id, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else {
            return nil
        }
        defer { drmModeFreeObjectProperties(properties) }
        for index in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            let propertyName = withUnsafeBytes(of: property.pointee.name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if propertyName == name { return property.pointee.prop_id }
        }
        return nil
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
    private func waitForFlip() throws(KioskError) {
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

    // MARK: restoring

    /// Puts the saved CRTC configuration back (the console's framebuffer and mode), then frees
    /// our buffers. Runs on every exit path; repeated calls do nothing.
    public func restore() {
        guard !restored else { return }
        restored = true
        let fd = card.fd.rawValue
        if flipPending { try? waitForFlip() }
        // The console must not come back to a display left powered down (the saved CRTC is set
        // below, so no modeset of our own first).
        if screenOff { _ = try? setPower(on: true) }
        if modeSet {
            if var original = saved, original.mode_valid != 0, original.buffer_id != 0 {
                var connectorID = connector.id
                let result = drmModeSetCrtc(
                    fd, original.crtc_id, original.buffer_id, original.x, original.y, &connectorID, 1, &original.mode)
                if result != 0 {
                    kioskWarn("\(card.path): could not restore the previous display configuration: \(drmError(result))")
                }
            } else {
                // Nothing was on screen before: turn the CRTC off rather than leave our buffer up.
                _ = drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil)
            }
        }
        swell_crash_restore_crtc_forget(crtcID)
        for buffer in buffers {
            buffer.mapping.unmap()
            drmModeRmFB(fd, buffer.framebufferID)
            drmModeDestroyDumbBuffer(fd, buffer.handle)
        }
        buffers = []
        card.releaseMaster()
    }
}

/// libdrm returns either -1 with errno set or a negative errno; both become an `Errno`.
func drmError(_ result: Int32) -> Errno {
    result < -1 ? Errno(rawValue: -result) : Errno.current
}
