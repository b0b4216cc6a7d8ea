import CDRM
import CSysShims
import SwellRaster
import SwellService
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

/// A card's connectors with their status, as every refusal lists them: "HDMI-A-1 (connected),
/// DP-1 (disconnected)", or "none".
public func connectorList(_ connectors: [(name: String, status: String)]) -> String {
    connectors.isEmpty ? "none" : connectors.map { "\($0.name) (\($0.status))" }.joined(separator: ", ")
}

/// The names of `names` that `connectors` lacks (names compare without case, as the kernel's are
/// matched), in their order.
public func unknownConnectors(_ names: [String], among connectors: [(name: String, status: String)]) -> [String] {
    let known = Set(connectors.map { $0.name.lowercased() })
    return names.filter { !known.contains($0.lowercased()) }
}

/// Output selection: which card, connector and mode a presenter drives, each refusal naming
/// what the card has. (Scan-out and flips are `DRMScanout`'s; power and hotplug `DRMPresenter`'s.)
enum DRMOutputSelection {
    static func cardAndConnector(_ selection: DRMSelection) throws(KioskError) -> (DRMCard, ConnectorInfo) {
        if let path = selection.devicePath {
            let card = try DRMCard(path: path.hasPrefix("/") ? path : "/dev/dri/" + path)
            return (card, try connector(card, named: selection.connectorName))
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
                return (card, try connector(card, named: selection.connectorName))
            } catch {
                if firstError == nil || firstError?.kind == .noDevice { firstError = error }
            }
        }
        throw firstError!
    }

    static func connector(_ card: DRMCard, named name: String?) throws(KioskError) -> ConnectorInfo {
        let summary = connectorList(card.connectors.map { ($0.name, $0.status) })
        if let name {
            guard let connector = card.connectors.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw KioskError(
                    .noConnector,
                    "\(card.path): no connector named \(name); it has \(summary)")
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
                "\(card.path) (\(card.driver)): no connected display (connectors: \(summary)); "
                    + "plug a display in or pick another card with --device")
        }
        return connector
    }

    static func mode(_ connector: ConnectorInfo, _ request: ModeRequest?, card: DRMCard) throws(KioskError)
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
}

extension DRMPresenter {
    /// Opens one presenter per output of `card`, each on a CRTC of its own; on failure the ones
    /// opened already are restored.
    public static func openOutputs(card: DRMCard, _ outputs: [DRMOutputRequest]) throws(KioskError)
        -> [DRMPresenter]
    {
        var connectors: [ConnectorInfo] = []
        for output in outputs {
            let connector = try DRMOutputSelection.connector(card, named: output.connectorName)
            guard !connectors.contains(where: { $0.id == connector.id }) else {
                throw KioskError(.usage, "\(card.path): \(connector.name) is named twice; one output shows one scene")
            }
            connectors.append(connector)
        }
        let crtcs = try card.assignCRTCs(for: connectors)
        var opened: [DRMPresenter] = []
        do {
            for (index, output) in outputs.enumerated() {
                let mode = try DRMOutputSelection.mode(connectors[index], output.mode, card: card)
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
}
