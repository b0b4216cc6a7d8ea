import SwellDisplay
import SwellService

/// Which output each touch device's touches go to, when one process drives several displays.
///
/// The assignment is a pure function of the device (its path, name and axis ranges), the
/// outputs (name, panel size in pixels and millimetres) and the user's `--touch DEVICE=OUTPUT`
/// values, so it is unit tested without devices (TouchRoutingTests). In order:
///
/// 1. `--touch` naming the device (by its path, a symbolic link to it such as
///    /dev/input/by-id/…, or its name as `swell displays` lists it) picks that output.
/// 2. Otherwise the output whose panel has the device's size: axis ranges that count the
///    panel's pixels (a controller reporting 0…1919 × 0…1079 on a 1080p panel), or ranges whose
///    resolution (units per mm) gives the panel's size in millimetres as its EDID reports it.
///    One such output takes it; several identical panels cannot be told apart by size.
/// 3. Otherwise the first output, and the journal line says why (QEMU's tablet, 0…32767 on
///    both axes, matches no panel; a relative mouse has no size).
public enum TouchRouting {
    /// An output as the routing sees it.
    public struct Output: Sendable, Equatable {
        public var name: String
        /// The panel's size in pixels, before rotation (the touch controller is glued to the
        /// panel, so it is compared unrotated).
        public var panelWidth: Int
        public var panelHeight: Int
        /// The panel's size as its EDID reports it (0: unknown).
        public var widthMillimetres: Int
        public var heightMillimetres: Int

        public init(
            name: String, panelWidth: Int, panelHeight: Int, widthMillimetres: Int = 0, heightMillimetres: Int = 0
        ) {
            self.name = name
            self.panelWidth = panelWidth
            self.panelHeight = panelHeight
            self.widthMillimetres = widthMillimetres
            self.heightMillimetres = heightMillimetres
        }
    }

    /// A touch device as the routing sees it.
    public struct Device: Sendable, Equatable {
        public var path: String
        public var name: String
        public var kind: InputDeviceKind

        public init(path: String, name: String, kind: InputDeviceKind) {
            self.path = path
            self.name = name
            self.kind = kind
        }
    }

    /// Why a device went where it went (for the journal line).
    public enum Reason: Sendable, Equatable {
        /// `--touch` named it.
        case named
        /// Its size matched this output's alone.
        case sizeMatch
        /// Its size matched several outputs (identical panels): the first of them.
        case ambiguous([String])
        /// Its size matched none: the first output.
        case noMatch
        /// A relative mouse: the first output.
        case mouse
        /// Only one output.
        case onlyOutput
    }

    public struct Route: Sendable, Equatable {
        /// Index into the outputs.
        public var output: Int
        public var reason: Reason

        public init(output: Int, reason: Reason) {
            self.output = output
            self.reason = reason
        }
    }

    /// Where `device` goes. `outputs` must not be empty; `requests` are already checked
    /// (`Request.checkAll`). `resolve` turns a requested path into the device node it names
    /// (symbolic links followed), so /dev/input/by-id names match.
    public static func route(
        _ device: Device, outputs: [Output], requests: [Request], resolve: (String) -> String = { $0 }
    ) -> Route {
        precondition(!outputs.isEmpty, "touch routing needs an output")
        if let request = requests.first(where: { $0.names(device, resolve: resolve) }),
            let index = outputs.firstIndex(where: { sameOutput($0.name, request.output) })
        {
            return Route(output: index, reason: .named)
        }
        if outputs.count == 1 { return Route(output: 0, reason: .onlyOutput) }
        guard let size = DeviceSize(device.kind) else { return Route(output: 0, reason: .mouse) }
        let matching = outputs.indices.filter { size.matches(outputs[$0]) }
        switch matching.count {
        case 0: return Route(output: 0, reason: .noMatch)
        case 1: return Route(output: matching[0], reason: .sizeMatch)
        default: return Route(output: matching[0], reason: .ambiguous(matching.map { outputs[$0].name }))
        }
    }

    /// The journal line for a device's route: "touch /dev/input/event2 (QEMU Virtio Tablet) →
    /// Virtual-1: its size (0…32767 × 0…32767) matches no output; --touch DEVICE=OUTPUT picks one".
    public static func describe(_ device: Device, _ route: Route, outputs: [Output]) -> String {
        let head = "touch \(device.path) (\(device.name)) → \(outputs[route.output].name)"
        let size = DeviceSize(device.kind)?.description ?? ""
        switch route.reason {
        case .named: return head + " (--touch)"
        case .onlyOutput: return head
        case .sizeMatch: return head + ": its size (\(size)) matches that panel"
        case .mouse: return head + ": a mouse has no size to match; --touch DEVICE=OUTPUT picks another output"
        case .noMatch:
            return head + ": its size (\(size)) matches no output, so the first; --touch DEVICE=OUTPUT picks one"
        case .ambiguous(let names):
            return head + ": its size (\(size)) matches " + names.joined(separator: " and ")
                + ", so the first; --touch DEVICE=OUTPUT picks one"
        }
    }

    /// Connector names compare without case, as `--display` compares them.
    public static func sameOutput(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

    /// A device's extent: axis steps, and millimetres where the device reports a resolution.
    struct DeviceSize: CustomStringConvertible {
        var width: Double
        var height: Double
        var widthMillimetres: Double?
        var heightMillimetres: Double?
        var ranges: (x: AxisRange, y: AxisRange)

        init?(_ kind: InputDeviceKind) {
            switch kind {
            case .multitouch(let x, let y, _), .singleTouch(let x, let y), .absolutePointer(let x, let y):
                ranges = (x, y)
            case .mouse:
                return nil
            }
            width = Double(ranges.x.maximum) - Double(ranges.x.minimum) + 1
            height = Double(ranges.y.maximum) - Double(ranges.y.minimum) + 1
            if ranges.x.resolution > 0 && ranges.y.resolution > 0 {
                widthMillimetres = width / Double(ranges.x.resolution)
                heightMillimetres = height / Double(ranges.y.resolution)
            }
        }

        /// Steps within one of the panel's pixels on both axes (0…1919 or 0…1920 on 1920
        /// pixels), or millimetres within 3 % (at least 2 mm) of the panel's on both.
        func matches(_ output: Output) -> Bool {
            if abs(width - Double(output.panelWidth)) <= 1 && abs(height - Double(output.panelHeight)) <= 1 {
                return true
            }
            guard let widthMillimetres, let heightMillimetres, output.widthMillimetres > 0,
                output.heightMillimetres > 0
            else { return false }
            func near(_ a: Double, _ b: Int) -> Bool { abs(a - Double(b)) <= max(2, 0.03 * Double(b)) }
            return near(widthMillimetres, output.widthMillimetres) && near(heightMillimetres, output.heightMillimetres)
        }

        /// Whole millimetres, where the device reports a resolution.
        var millimetres: (width: Int, height: Int)? {
            guard let widthMillimetres, let heightMillimetres else { return nil }
            return (Int(widthMillimetres.rounded()), Int(heightMillimetres.rounded()))
        }

        var description: String {
            var text = "\(ranges.x.minimum)…\(ranges.x.maximum) × \(ranges.y.minimum)…\(ranges.y.maximum)"
            if let widthMillimetres, let heightMillimetres {
                text += ", \(Int(widthMillimetres.rounded()))x\(Int(heightMillimetres.rounded())) mm"
            }
            return text
        }
    }

    /// One `--touch DEVICE=OUTPUT`.
    public struct Request: Sendable, Equatable {
        /// A device node's path (anything starting with '/') or a device's name.
        public var device: String
        public var output: String

        public init(device: String, output: String) {
            self.device = device
            self.output = output
        }

        /// Whether this request names `device`: a path (symbolic links resolved by `resolve`),
        /// else the device's name exactly.
        func names(_ device: Device, resolve: (String) -> String) -> Bool {
            if self.device.hasPrefix("/") {
                return self.device == device.path || resolve(self.device) == device.path
            }
            return self.device == device.name
        }

        /// The requests that name `device` (more than one: the same device given twice under a
        /// path and a name, found only once the device is open).
        public static func naming(_ device: Device, in requests: [Request], resolve: (String) -> String) -> [Request] {
            requests.filter { $0.names(device, resolve: resolve) }
        }
    }
}

/// What an `InputMonitor` over several outputs needs: the outputs (for matching, and each one's
/// mapping: panel size and rotation), the `--touch` requests, and the calibrations.
public struct InputRouting: Sendable {
    public var outputs: [TouchRouting.Output]
    /// Per output: its panel size and rotation (the calibration is the device's, below).
    public var mappings: [ScreenMapping]
    public var requests: [TouchRouting.Request]
    /// `--touch-matrix DEVICE=A,…,F`, by device (path or name, as `--touch` names devices).
    public var calibrations: [(device: String, matrix: TouchCalibration)]
    /// `--touch-matrix A,…,F`: every device without a calibration of its own.
    public var defaultCalibration: TouchCalibration
    /// Resolves a requested path to the node it names (symbolic links followed).
    public var resolve: @Sendable (String) -> String

    public init(
        outputs: [TouchRouting.Output], mappings: [ScreenMapping], requests: [TouchRouting.Request] = [],
        calibrations: [(device: String, matrix: TouchCalibration)] = [],
        defaultCalibration: TouchCalibration = .identity, resolve: @escaping @Sendable (String) -> String = { $0 }
    ) {
        precondition(!outputs.isEmpty && outputs.count == mappings.count, "one mapping per output")
        self.outputs = outputs
        self.mappings = mappings
        self.requests = requests
        self.calibrations = calibrations
        self.defaultCalibration = defaultCalibration
        self.resolve = resolve
    }

    public func route(_ device: TouchRouting.Device) -> TouchRouting.Route {
        TouchRouting.route(device, outputs: outputs, requests: requests, resolve: resolve)
    }

    /// The device's own `--touch-matrix DEVICE=…`, else the default.
    public func calibration(for device: TouchRouting.Device) -> TouchCalibration {
        let request = { (name: String) in TouchRouting.Request(device: name, output: "") }
        return calibrations.first { request($0.device).names(device, resolve: resolve) }?.matrix ?? defaultCalibration
    }
}
