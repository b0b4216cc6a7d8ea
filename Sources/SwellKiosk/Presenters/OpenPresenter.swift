/// Which presenter to open.
public enum OutputChoice: String, Sendable, CaseIterable {
    /// DRM when a card with a connected display can be claimed, else fbdev.
    case auto
    case drm
    case fbdev
    /// No display: an in-memory scan-out buffer (tests, benchmarks, headless runs).
    case memory

    public init(parsing text: String) throws(KioskError) {
        guard let choice = OutputChoice(rawValue: text) else {
            throw KioskError(.usage, "--output wants auto, drm, fbdev or memory, not '\(text)'")
        }
        self = choice
    }
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

    public init() {}
}

/// Opens the presenter `options` ask for. `auto` tries DRM, then fbdev, and when both fail reports
/// both reasons (the DRM one first: it is usually the one to fix).
public func openPresenter(_ options: OutputOptions) throws(KioskError) -> any Presenter {
    let selection = DRMSelection(devicePath: options.device, connectorName: options.connector, mode: options.mode)
    switch options.choice {
    case .drm:
        return try DRMPresenter(selection, rotation: options.rotation)
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
        do {
            return try DRMPresenter(
                DRMSelection(
                    devicePath: device.flatMap { $0.contains("fb") ? nil : $0 }, connectorName: options.connector,
                    mode: options.mode),
                rotation: options.rotation)
        } catch let drmError {
            // A named connector or mode only makes sense on DRM: report that failure as it is.
            if options.connector != nil || options.mode != nil || drmError.kind == .busy { throw drmError }
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
