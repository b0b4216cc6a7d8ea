import CDRM
import CSysShims
import SwellRaster
import SwellService
import SwellSystem

// The kernel is reached only through libdrm (CDRM), CSysShims (the crash handler) and
// SwellSystem (descriptors, mappings, poll, the clock): no C library call of its own.

/// Presents through DRM/KMS one output of a card: the output chosen (`DRMOutputSelection`), its
/// scan-out and flips (`DRMScanout`), and here its power (DPMS), hotplug, and the restore of
/// what the console showed.
public final class DRMPresenter: Presenter {
    public let display: DisplayInfo
    public let rotation: Rotation
    public let shadow: PixelBuffer
    public let card: DRMCard
    public let connector: ConnectorInfo
    public let mode: DisplayMode
    public let crtcID: UInt32
    private let scanout: DRMScanout
    private let saved: drmModeCrtc?
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
        let (card, connector) = try DRMOutputSelection.cardAndConnector(selection)
        guard let crtc = card.crtc(for: connector) else {
            throw KioskError(.noConnector, "\(card.path): no display controller (CRTC) can drive \(connector.name)")
        }
        try self.init(
            card: card, connector: connector, crtcID: crtc,
            mode: try DRMOutputSelection.mode(connector, selection.mode, card: card), rotation: rotation)
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
        display = DisplayInfo(
            device: card.name, output: connector.name, panelWidth: mode.width, panelHeight: mode.height,
            refreshHz: mode.refreshHz, backend: "drm")
        let logical = rotation.logicalSize(panelWidth: mode.width, panelHeight: mode.height)
        shadow = PixelBuffer(width: logical.width, height: logical.height)

        try card.claimMaster()
        var original: drmModeCrtc?
        if let crtc = drmModeGetCrtc(card.fd.rawValue, crtcID) {
            original = crtc.pointee
            drmModeFreeCrtc(crtc)
            Self.armCrashRestore(original, card: card, connector: connector)
        }
        saved = original
        do {
            scanout = try DRMScanout(
                card: card, connector: connector, crtcID: crtcID, mode: mode, rotation: rotation, shadow: shadow)
        } catch {
            swell_crash_restore_crtc_forget(crtcID)
            card.releaseMaster()
            throw error
        }
    }

    deinit {
        restore()
    }

    /// Has the crash handler put `original` back on its CRTC if the process dies.
    private static func armCrashRestore(_ saved: drmModeCrtc?, card: DRMCard, connector: ConnectorInfo) {
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
        try scanout.waitForFlip()
        sleepUntil(monotonic: scanout.readyAt)
    }

    public func queue(damage frame: Damage, now: Double) throws(KioskError) {
        try scanout.queue(damage: frame, now: now, dark: unplugged || screenOff)
    }

    public func frameWait(now: Double) throws(KioskError) -> FrameWait {
        try scanout.frameWait(now: now)
    }

    public var isShowing: Bool { !unplugged }

    public var lastCopySeconds: Double { scanout.lastCopySeconds }

    public var pacing: String { scanout.pacing }

    // MARK: hotplug and power

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
            guard scanout.modeSet, !scanout.buffers.isEmpty, !screenOff else { return }
            try scanout.setModeAgain()
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
        if on && scanout.modeSet && !unplugged && !scanout.buffers.isEmpty { try scanout.setModeAgain() }
        return true
    }

    /// Sets the connector's DPMS property; false if it has none.
    private func setPower(on: Bool) throws(KioskError) -> Bool {
        guard let property = connectorPropertyID(named: "DPMS") else { return false }
        try scanout.waitForFlip()
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

    // MARK: restoring

    /// Puts the saved CRTC configuration back (the console's framebuffer and mode), then frees
    /// our buffers. Runs on every exit path; repeated calls do nothing.
    public func restore() {
        guard !restored else { return }
        restored = true
        let fd = card.fd.rawValue
        if scanout.flipPending { try? scanout.waitForFlip() }
        // The console must not come back to a display left powered down (the saved CRTC is set
        // below, so no modeset of our own first).
        if screenOff { _ = try? setPower(on: true) }
        if scanout.modeSet {
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
        scanout.freeBuffers()
        card.releaseMaster()
    }
}
