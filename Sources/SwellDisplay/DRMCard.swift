import CDRM
import SwellService
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A display mode a connector offers.
public struct DisplayMode: Sendable {
    public let info: drmModeModeInfo

    public init(info: drmModeModeInfo) { self.info = info }
    public var width: Int { Int(info.hdisplay) }
    public var height: Int { Int(info.vdisplay) }
    public var isPreferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }

    /// The exact refresh rate from the pixel clock and totals (vrefresh is rounded to whole Hz).
    public var refreshHz: Double {
        let total = Double(info.htotal) * Double(info.vtotal)
        guard total > 0, info.clock > 0 else { return Double(info.vrefresh) }
        var hz = Double(info.clock) * 1000 / total
        if info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { hz *= 2 }
        if info.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { hz /= 2 }
        return hz
    }

    /// "1920x1080@60" (the rounded rate, as modetest prints it).
    public var label: String { "\(width)x\(height)@\(Int(refreshHz.rounded()))" }
}

extension DisplayMode {
    /// `ConnectorInfo.defaultMode(shownNow:)` for a connector offering `modes`.
    public static func defaultMode(among modes: [DisplayMode], shownNow: DisplayMode?) -> DisplayMode? {
        if let preferred = modes.first(where: \.isPreferred) { return preferred }
        if let shownNow, let offered = modes.first(where: { $0.sameTiming(as: shownNow) }) { return offered }
        return modes.first
    }
}

/// A `--mode WxH[@Hz]` request.
public struct ModeRequest: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var refreshHz: Double?

    public init(width: Int, height: Int, refreshHz: Double? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// Reads "WIDTHxHEIGHT" or "WIDTHxHEIGHT@HZ" ("1920x1080@60"), sides 1...16384, a rate
    /// above 0 and below 1000 Hz; nil for anything else (the caller says what it wanted).
    public init?(text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count <= 2, size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0,
            w <= 16384, h <= 16384
        else { return nil }
        width = w
        height = h
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz > 0, hz < 1000 else { return nil }
            refreshHz = hz
        }
    }

    /// Whether `mode` satisfies the request (the rate within half a hertz).
    public func matches(_ mode: DisplayMode) -> Bool {
        guard mode.width == width, mode.height == height else { return false }
        guard let refreshHz else { return true }
        return abs(mode.refreshHz - refreshHz) < 0.5
    }
}

/// What one connector reports.
public struct ConnectorInfo: Sendable {
    public let id: UInt32
    /// "HDMI-A-1", "Virtual-1", "DSI-1".
    public let name: String
    public let isConnected: Bool
    public let status: String
    public let modes: [DisplayMode]
    public let encoderIDs: [UInt32]
    /// The encoder currently driving it (0: none).
    public let currentEncoderID: UInt32
    public let widthMillimetres: Int
    public let heightMillimetres: Int

    /// The preferred mode, else the first (drivers list the best first).
    public var defaultMode: DisplayMode? { defaultMode(shownNow: nil) }

    /// The preferred mode; without one, the mode its CRTC shows now (`shownNow`) if the connector
    /// offers it, else the first listed. A connector with no preferred mode (QEMU's second
    /// virtio-gpu head lists 5120x2160 first, while the console runs at the 1024x768 the
    /// kernel's `video=` option forced) keeps the mode it was given, as the console does.
    public func defaultMode(shownNow: DisplayMode?) -> DisplayMode? {
        DisplayMode.defaultMode(among: modes, shownNow: shownNow)
    }
}

/// An open DRM card: its file descriptor and the KMS objects it reports.
public final class DRMCard {
    public let path: String
    /// "card0".
    public let name: String
    public let fd: FileDescriptor
    public let driver: String
    public private(set) var connectors: [ConnectorInfo] = []
    public private(set) var crtcIDs: [UInt32] = []

    /// Opens `path` and reads its connectors; throws `.noDevice` for cards without KMS (render-only GPUs).
    public init(path: String) throws(KioskError) {
        self.path = path
        name = String(path.split(separator: "/").last ?? Substring(path))
        do {
            fd = try FileDescriptor.open(path, O_RDWR)
        } catch {
            throw KioskError.opening(path, error, group: "video")
        }
        var driverName = "unknown"
        if let version = drmGetVersion(fd.rawValue) {
            if let text = version.pointee.name { driverName = String(cString: text) }
            drmFreeVersion(version)
        }
        driver = driverName
        do {
            try reload()
        } catch {
            fd.close()
            throw error
        }
    }

    deinit { fd.close() }

    /// Re-reads connectors and CRTCs (after a hotplug event: all state may have changed).
    public func reload() throws(KioskError) {
        guard let resources = drmModeGetResources(fd.rawValue) else {
            throw KioskError(.noDevice, "\(path) (\(driver)) has no display outputs (no KMS support: \(Errno.current))")
        }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        crtcIDs = (0..<Int(res.count_crtcs)).map { res.crtcs[$0] }
        var found: [ConnectorInfo] = []
        for index in 0..<Int(res.count_connectors) {
            guard let connector = drmModeGetConnector(fd.rawValue, res.connectors[index]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
            let status: String
            switch c.connection {
            case DRM_MODE_CONNECTED: status = "connected"
            case DRM_MODE_DISCONNECTED: status = "disconnected"
            default: status = "unknown"
            }
            found.append(
                ConnectorInfo(
                    id: c.connector_id, name: "\(typeName)-\(c.connector_type_id)",
                    isConnected: c.connection == DRM_MODE_CONNECTED, status: status,
                    modes: (0..<Int(c.count_modes)).map { DisplayMode(info: c.modes[$0]) },
                    encoderIDs: (0..<Int(c.count_encoders)).map { c.encoders[$0] },
                    currentEncoderID: c.encoder_id, widthMillimetres: Int(c.mmWidth),
                    heightMillimetres: Int(c.mmHeight)))
        }
        connectors = found
    }

    /// The mode the CRTC driving `connector` shows now (nil: none drives it, or it is off).
    public func modeShown(on connector: ConnectorInfo) -> DisplayMode? {
        guard connector.currentEncoderID != 0, let encoder = drmModeGetEncoder(fd.rawValue, connector.currentEncoderID)
        else { return nil }
        let crtcID = encoder.pointee.crtc_id
        drmModeFreeEncoder(encoder)
        guard crtcID != 0, let crtc = drmModeGetCrtc(fd.rawValue, crtcID) else { return nil }
        defer { drmModeFreeCrtc(crtc) }
        return crtc.pointee.mode_valid != 0 ? DisplayMode(info: crtc.pointee.mode) : nil
    }

    /// The CRTC currently driving `connector`, or the first one its encoders can drive.
    public func crtc(for connector: ConnectorInfo) -> UInt32? {
        if connector.currentEncoderID != 0, let encoder = drmModeGetEncoder(fd.rawValue, connector.currentEncoderID) {
            let crtc = encoder.pointee.crtc_id
            drmModeFreeEncoder(encoder)
            if crtc != 0 { return crtc }
        }
        for encoderID in connector.encoderIDs {
            guard let encoder = drmModeGetEncoder(fd.rawValue, encoderID) else { continue }
            let possible = encoder.pointee.possible_crtcs
            drmModeFreeEncoder(encoder)
            for (index, crtc) in crtcIDs.enumerated() where index < 32 && possible & (1 << UInt32(index)) != 0 {
                return crtc
            }
        }
        return nil
    }

    /// What CRTC assignment needs of `connector`: the CRTC driving it now and its encoders' masks.
    public func crtcCandidate(for connector: ConnectorInfo) -> CRTCCandidate {
        var current: UInt32 = 0
        if connector.currentEncoderID != 0, let encoder = drmModeGetEncoder(fd.rawValue, connector.currentEncoderID) {
            current = encoder.pointee.crtc_id
            drmModeFreeEncoder(encoder)
        }
        var masks: [UInt32] = []
        for encoderID in connector.encoderIDs {
            guard let encoder = drmModeGetEncoder(fd.rawValue, encoderID) else { continue }
            masks.append(encoder.pointee.possible_crtcs)
            drmModeFreeEncoder(encoder)
        }
        return CRTCCandidate(name: connector.name, currentCRTC: current, possibleCRTCMasks: masks)
    }

    /// A distinct CRTC for each of `outputs` (several heads at once); throws naming the outputs
    /// left without one.
    public func assignCRTCs(for outputs: [ConnectorInfo]) throws(KioskError) -> [UInt32] {
        let assigned = SwellDisplay.assignCRTCs(outputs.map(crtcCandidate(for:)), crtcIDs: crtcIDs)
        let stranded = zip(outputs, assigned).filter { $0.1 == nil }.map(\.0.name)
        guard stranded.isEmpty else {
            throw KioskError(
                .noConnector,
                "\(path): \(crtcIDs.count) display controllers (CRTCs) cannot drive "
                    + outputs.map(\.name).joined(separator: ", ") + " at once; "
                    + stranded.joined(separator: ", ") + " would have none")
        }
        return assigned.compactMap { $0 }
    }

    /// How many presenters use this card as DRM master: the last to let go drops it.
    private var masterUsers = 0

    /// The first opener of a card becomes DRM master; if we are not, someone else is.
    public func claimMaster() throws(KioskError) {
        if masterUsers > 0 || drmIsMaster(fd.rawValue) != 0 || drmSetMaster(fd.rawValue) == 0 {
            masterUsers += 1
            return
        }
        let error = Errno.current
        if error == .accessDenied || error == .notPermitted {
            throw KioskError(
                .permissionDenied,
                "\(path): cannot become DRM master (\(error.message)); another program held it and this one "
                    + "may not take it over: run as root, or from a VT where no desktop session runs")
        }
        throw KioskError(
            .busy,
            "\(path) is busy: another DRM master (a desktop session or another kiosk program) holds it; stop it "
                + "(for example 'systemctl stop display-manager') or run Swell on a free VT")
    }

    /// One presenter is done with the card; the last one drops DRM master (so a desktop or
    /// another kiosk may take the card while the others' outputs would otherwise be cut off).
    public func releaseMaster() {
        masterUsers -= 1
        if masterUsers <= 0 {
            masterUsers = 0
            drmDropMaster(fd.rawValue)
        }
    }

    /// What a CRTC shows now: (framebuffer id, mode label) — fb 0 means off.
    public func crtcState(_ crtcID: UInt32) -> (fb: UInt32, mode: String)? {
        guard let crtc = drmModeGetCrtc(fd.rawValue, crtcID) else { return nil }
        defer { drmModeFreeCrtc(crtc) }
        let mode = crtc.pointee.mode_valid != 0 ? DisplayMode(info: crtc.pointee.mode).label : "off"
        return (crtc.pointee.buffer_id, mode)
    }

    /// Opens `path` (a name such as card1 is looked up in /dev/dri), or else the first card with
    /// display outputs: the card several outputs share.
    public static func open(_ path: String?) throws(KioskError) -> DRMCard {
        if let path { return try DRMCard(path: path.hasPrefix("/") ? path : "/dev/dri/" + path) }
        var firstError = KioskError(.noDevice, "no DRM device in /dev/dri; load the display's KMS driver")
        for candidate in devicePaths() {
            do {
                return try DRMCard(path: candidate)
            } catch {
                firstError = error
            }
        }
        throw firstError
    }

    /// The card paths in /dev/dri, in order.
    public static func devicePaths() -> [String] {
        directoryEntries("/dev/dri").filter { $0.hasPrefix("card") }.map { "/dev/dri/" + $0 }
    }
}
