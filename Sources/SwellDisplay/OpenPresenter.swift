import SwellService
import SwellSystem

/// Which presenter to open.
public enum OutputChoice: String, Sendable, CaseIterable {
    /// DRM when a card with a connected display can be claimed, else fbdev.
    case auto
    case drm
    case fbdev
    /// No display: an in-memory scan-out buffer (tests, benchmarks, headless runs).
    case memory

}

/// Everything the command line says about the output.
public struct OutputOptions: Sendable {
    public var choice: OutputChoice = .auto
    /// A DRM card (/dev/dri/card1, card1) or framebuffer (/dev/fb1, fb1).
    public var device: String?
    public var connector: String?
    public var mode: ModeRequest?
    public var rotation: Rotation = .none
    /// The memory presenter's panel size.
    public var memorySize: (width: Int, height: Int) = (1920, 1080)
    /// How long `openPresenter` waits for a display to be connected to a DRM card that has none
    /// (a kiosk booted before its screen was switched on), in seconds; nil: it does not wait.
    public var waitForDisplay: Double?

    public init() {}
}

/// Opens the presenter `options` ask for. `auto` tries DRM, then fbdev, and when both fail reports
/// both reasons (the DRM one first: it is usually the one to fix).
public func openPresenter(_ options: OutputOptions) throws(KioskError) -> any Presenter {
    let selection = DRMSelection(devicePath: options.device, connectorName: options.connector, mode: options.mode)
    switch options.choice {
    case .drm:
        return try openDRMWhenConnected(within: options.waitForDisplay) { () throws(KioskError) in
            try DRMPresenter(selection, rotation: options.rotation)
        }
    case .fbdev:
        if options.connector != nil || options.mode != nil {
            throw KioskError(.usage, "--connector and --mode need --output drm (fbdev has one fixed mode)")
        }
        return try FBDevPresenter(devicePath: options.device, rotation: options.rotation)
    case .memory:
        return MemoryPresenter(
            panelWidth: options.memorySize.width, panelHeight: options.memorySize.height, rotation: options.rotation,
            pacedHz: 60)
    case .auto:
        let device = options.device
        let drmSelection = DRMSelection(
            devicePath: device.flatMap { $0.contains("fb") ? nil : $0 }, connectorName: options.connector,
            mode: options.mode)
        // Waits only when no framebuffer of another driver (an SPI panel's, say) could show the
        // picture meanwhile: the DRM card's own fbdev emulation drives the same dark output, at a
        // stand-in size, and would keep the kiosk off DRM once the screen is on.
        let wait = options.waitForDisplay.flatMap { seconds in otherFramebufferExists(device) ? nil : seconds }
        do {
            return try openDRMWhenConnected(within: wait) { () throws(KioskError) in
                try DRMPresenter(drmSelection, rotation: options.rotation)
            }
        } catch let drmError {
            // A named connector or mode only makes sense on DRM: report that failure as it is;
            // after waiting in vain for a display, so is the card's own (as dark) fbdev emulation.
            if options.connector != nil || options.mode != nil || drmError.kind == .busy
                || (drmError.kind == .displayDisconnected && wait != nil)
            {
                throw drmError
            }
            do {
                return try FBDevPresenter(
                    devicePath: device.flatMap { $0.contains("fb") ? $0 : nil }, rotation: options.rotation)
            } catch let fbError {
                let kind = drmError.kind == .noDevice ? fbError.kind : drmError.kind
                throw KioskError(
                    kind, "no display could be opened:\n  drm: \(drmError.message)\n  fbdev: \(fbError.message)")
            }
        }
    }
}

/// `open()`, retried while it fails because no display is connected (`displayDisconnected`) for up
/// to `seconds`: said once, then woken by the kernel's DRM change uevents (and every 5 s, should
/// they not arrive). nil: one try. The wait holds no device open and changes nothing on screen, so
/// a stop signal may simply end the process meanwhile.
func openDRMWhenConnected(
    within seconds: Double?, _ open: () throws(KioskError) -> DRMPresenter
) throws(KioskError) -> DRMPresenter {
    guard let seconds else { return try open() }
    let deadline = monotonicSeconds() + seconds
    // A night-hours SIGUSR1/SIGUSR2 sent while waiting is kept for the loop (their default action
    // would end the process).
    try StopSignals.installScreenSignals()
    // Listening before the first look, so a display plugged in between is not missed.
    let uevents = UeventMonitor()
    var said = false
    while true {
        do {
            return try open()
        } catch let error where error.kind == .displayDisconnected {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { throw error }
            let notifier = ServiceNotifier.current
            if !said {
                // (also the status line systemctl shows)
                kioskWarn("waiting for a display to be connected: " + error.message)
                // Up, if not yet on screen: systemd's start timeout must not kill a kiosk whose
                // screen is switched on later, and its watchdog then guards this wait too.
                notifier?.ready()
                said = true
            }
            notifier?.keepAlive()
            let milliseconds = Int32(min(left, 5, notifier?.secondsUntilKeepAlive() ?? 5) * 1000) + 1
            _ = waitForReadable(uevents.map { [$0.fd] } ?? [], timeoutMilliseconds: milliseconds)
            _ = uevents?.drainDisplayChanges()
        }
    }
}

/// Whether a framebuffer device of a driver other than a DRM card's fbdev emulation (whose ids
/// end in "drmfb": "bochs-drmdrmfb", "vc4drmfb", "i915drmfb") is there, or `device` names one.
func otherFramebufferExists(_ device: String?) -> Bool {
    if let device, device.contains("fb") { return true }
    return FBDevPresenter.devicePaths().contains { path in
        guard let id = FBDevPresenter.driverID(path: path) else { return false }
        return !id.hasSuffix("drmfb")
    }
}
