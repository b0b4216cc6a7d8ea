import SwellDisplay
import SwellInput
import SwellLoop
import SwellPlayer
import SwellRaster
import SwellService
import SwellSystem

/// `--touch DEVICE=OUTPUT` (`run`): which output a touch device touches.
let touchRoutingOption = OptionSpec.option(
    "touch", "DEVICE=OUTPUT",
    "send DEVICE's touches (its /dev/input path, a link to it, or its name as 'swell displays' lists it) to OUTPUT; "
        + "repeatable (default: the output of the device's size, else the first)")

/// `--span` and its layout (`run`).
let spanOptions: [OptionSpec] = [
    .option(
        "span", "A,B[,…]",
        "one scene over these DRM connectors as one canvas, in this order (left to right, or top to bottom)"),
    .option("bezel", "PX", "with --span: canvas pixels hidden between neighbouring panels (default 0)"),
    .option("span-layout", "row|column", "with --span: side by side (row, default: one height) or stacked (one width)"),
    .option(
        "span-at", "NAME=X,Y", "with --span: an output's top-left corner on the canvas; one per output, any sizes"),
]

/// The calibrations `--touch-matrix` gives: `A,B,C,D,E,F` for every device, `DEVICE=A,…,F` for one.
struct TouchCalibrations {
    var all: TouchCalibration = .identity
    var perDevice: [(device: String, matrix: TouchCalibration)] = []
}

/// Every `--touch-matrix` value; a device (or every device) given two is a usage error.
func touchCalibrations(_ arguments: ParsedArguments) throws -> TouchCalibrations {
    var calibrations = TouchCalibrations()
    var seen: Set<String> = []
    for text in arguments.values("touch-matrix") {
        let equals = text.lastIndex(of: "=")
        let device = equals.map { String(text[..<$0]) } ?? ""
        let matrix = equals.map { String(text[text.index(after: $0)...]) } ?? text
        guard seen.insert(device).inserted else {
            throw CommandFailure(
                ExitStatus.usage,
                "--touch-matrix is given twice for " + (device.isEmpty ? "every device" : device) + "; give one")
        }
        let calibration = try touchMatrix(matrix)
        if device.isEmpty {
            calibrations.all = calibration
        } else {
            calibrations.perDevice.append((device, calibration))
        }
    }
    return calibrations
}

/// An output as touch routing sees it: its panel (pixels, and millimetres from the EDID on DRM).
func touchOutput(_ presenter: any Presenter) -> TouchRouting.Output {
    let display = presenter.display
    let connector = (presenter as? DRMPresenter)?.connector
    return TouchRouting.Output(
        name: display.output, panelWidth: display.panelWidth, panelHeight: display.panelHeight,
        widthMillimetres: connector?.widthMillimetres ?? 0, heightMillimetres: connector?.heightMillimetres ?? 0)
}

/// The routing of touch devices to `presenters`' outputs (a usage error for a route to an output
/// not driven, or a device given two outputs).
func inputRouting(_ touch: KioskPlan.Touch, presenters: [any Presenter]) throws -> InputRouting {
    let outputs = presenters.map(touchOutput)
    let problems = TouchRouting.Request.check(touch.routes, outputs: outputs.map(\.name))
    guard problems.isEmpty else { throw CommandFailure(ExitStatus.usage, problems.joined(separator: "\n")) }
    return InputRouting(
        outputs: outputs,
        mappings: presenters.map {
            ScreenMapping(
                panelWidth: $0.display.panelWidth, panelHeight: $0.display.panelHeight, rotation: $0.rotation)
        },
        requests: touch.routes, calibrations: touch.calibrations.map { ($0.device, $0.matrix) },
        defaultCalibration: touch.calibration, resolve: resolvedPath)
}

/// Refuses an open device that two `--touch` values name (one by its path, one by its name),
/// and warns about `--touch` values that name no device open now (one plugged in later is
/// routed when it appears).
func checkTouchedDevices(_ input: InputMonitor, routing: InputRouting) throws {
    let devices = input.routedDevices.map(\.device)
    for device in devices {
        let naming = TouchRouting.Request.naming(device, in: routing.requests, resolve: routing.resolve)
        guard naming.count > 1 else { continue }
        throw CommandFailure(
            ExitStatus.usage,
            "--touch: \(device.path) (\(device.name)) is named \(naming.count) times ("
                + naming.map { "\($0.device)=\($0.output)" }.joined(separator: ", ") + "); name it once")
    }
    for request in routing.requests
    where !devices.contains(where: { !TouchRouting.Request.naming($0, in: [request], resolve: routing.resolve).isEmpty }
    ) {
        kioskWarn(
            "--touch \(request.device)=\(request.output): no such touch device now ('swell displays' lists them); "
                + "it goes to \(request.output) when it appears")
    }
}

/// `path` with its symbolic links resolved (itself when it does not resolve).
func resolvedPath(_ path: String) -> String {
    canonicalPath(path) ?? path
}

/// What `--span` asks for, before the outputs' sizes are known.
struct SpanRequest {
    var names: [String]
    var arrangement: SpanLayout.Arrangement
    var bezel: Int
}

/// `--span` with `--bezel`, `--span-layout` and `--span-at` (nil without `--span`; any of them
/// without it, or a malformed value, is a usage error).
func spanRequest(_ arguments: ParsedArguments) throws -> SpanRequest? {
    let layoutOptions = ["bezel", "span-layout", "span-at"].filter { !arguments.values($0).isEmpty }
    guard let text = arguments["span"] else {
        if let option = layoutOptions.first {
            throw CommandFailure(ExitStatus.usage, "--\(option) goes with --span A,B: the outputs the scene spans")
        }
        return nil
    }
    let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard names.count >= 2, !names.contains(where: { $0.isEmpty || $0.contains(" ") || $0.contains("=") }) else {
        throw CommandFailure(
            ExitStatus.usage,
            "--span wants two or more connector names separated by commas, such as HDMI-A-1,HDMI-A-2, not '\(text)'")
    }
    let lowered = names.map { $0.lowercased() }
    if let twice = names.first(where: { name in lowered.filter { $0 == name.lowercased() }.count > 1 }) {
        throw CommandFailure(ExitStatus.usage, "--span names \(twice) twice; each output shows one part of the canvas")
    }
    let bezel = try arguments.integer("bezel", default: 0, in: 0...100_000)
    let positions = try arguments.values("span-at").map(spanPosition)
    var arrangement = SpanLayout.Arrangement.row
    switch arguments["span-layout"] {
    case nil, "row": break
    case "column": arrangement = .column
    case let other?:
        throw CommandFailure(ExitStatus.usage, "--span-layout wants row or column, not '\(other)'")
    }
    if !positions.isEmpty {
        guard arguments["span-layout"] == nil else {
            throw CommandFailure(ExitStatus.usage, "--span-at places the outputs itself: leave --span-layout out")
        }
        arrangement = .positions(positions)
    }
    return SpanRequest(names: names, arrangement: arrangement, bezel: bezel)
}

/// One `--span-at NAME=X,Y`.
private func spanPosition(_ text: String) throws -> SpanLayout.Position {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    let numbers =
        parts.count == 2 ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map { Int($0) } : []
    guard parts.count == 2, !parts[0].isEmpty, numbers.count == 2, let x = numbers[0], let y = numbers[1], x >= 0,
        y >= 0
    else {
        throw CommandFailure(
            ExitStatus.usage,
            "--span-at wants NAME=X,Y, an output and its top-left corner on the canvas in whole pixels ≥ 0, "
                + "such as HDMI-A-2=1960,0, not '\(text)'")
    }
    return SpanLayout.Position(name: parts[0], x: x, y: y)
}

/// The DRM output requests of several outputs: `--mode` and `--rotate` take a plain value for
/// every output and `CONNECTOR=VALUE` (repeatable) for one, so a portrait customer display can
/// sit beside a landscape menu board. Checked before any display is taken: a malformed value, a
/// connector the run does not drive, or one connector given two values is a usage error.
func outputRequests(_ connectors: [String], _ arguments: ParsedArguments, options: OutputOptions) throws
    -> [DRMOutputRequest]
{
    let rotations = try perOutputValues(arguments, "rotate", connectors: connectors, parse: rotation)
    let modes = try perOutputValues(arguments, "mode", connectors: connectors, parse: modeRequest)
    return connectors.map {
        DRMOutputRequest(
            connectorName: $0, mode: modes[$0] ?? options.mode, rotation: rotations[$0] ?? options.rotation)
    }
}

/// The `CONNECTOR=VALUE` values of `option`, parsed, keyed by the run's spelling of the
/// connector (names compare without case, as `--display` takes them).
private func perOutputValues<Value>(
    _ arguments: ParsedArguments, _ option: String, connectors: [String],
    parse: (String) throws(CommandFailure) -> Value
) throws -> [String: Value] {
    var values: [String: Value] = [:]
    for text in arguments.values(option) {
        // A plain value is every output's (outputOptions took it).
        guard let equals = text.firstIndex(of: "=") else { continue }
        let name = String(text[..<equals])
        guard let connector = connectors.first(where: { $0.lowercased() == name.lowercased() }) else {
            throw CommandFailure(
                ExitStatus.usage,
                "--\(option) \(text): \(name) is not one of this run's outputs ("
                    + connectors.joined(separator: ", ") + ")")
        }
        guard values[connector] == nil else {
            throw CommandFailure(ExitStatus.usage, "--\(option) is given twice for \(connector); give one")
        }
        do {
            values[connector] = try parse(String(text[text.index(after: equals)...]))
        } catch {
            throw CommandFailure(ExitStatus.usage, "--\(option) \(connector)=…: \(error.message)")
        }
    }
    return values
}
