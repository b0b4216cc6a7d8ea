import SwellDisplay
import SwellInput
import SwellLoop
import SwellPlayer
import SwellService

/// `swell run`'s options as a kiosk plan: the shorthand of a kiosk file, for one command line.
/// Every check that needs no display is made here, before any display is taken; `--display`
/// checks its connectors against the card (an unknown one lists them, exit 69).
func kioskPlan(from arguments: ParsedArguments) throws -> KioskPlan {
    var plan: KioskPlan
    if let span = try spanRequest(arguments) {
        plan = try spanPlan(span, arguments)
    } else {
        plan = try outputsPlan(arguments)
    }
    plan.threads = try arguments["threads"].map { _ in try arguments.integer("threads", default: 1, in: 1...256) }
    plan.clock = try realtimeClockOption(arguments)
    plan.screenOffAfter = try positiveSecondsOption(arguments, "screen-off-after")
    plan.script = arguments["input"]
    plan.contentFolder = arguments["content-folder"]
    plan.touch = try touchPlan(arguments, outputs: plan.connectors.compactMap { $0 })
    plan.api = try managementOption(arguments)
    return plan
}

/// `--api ADDRESS:PORT --api-tokens FILE [--api-certificate FILE --api-key FILE] [--api-plain-http]`.
private func managementOption(_ arguments: ParsedArguments) throws -> ManagementSettings? {
    let related = ["api-tokens", "api-certificate", "api-key", "api-plain-http"].filter { arguments.has($0) }
    guard let listen = arguments["api"] else {
        if let first = related.first {
            throw CommandFailure(ExitStatus.usage, "--\(first) goes with --api ADDRESS:PORT, which turns the API on")
        }
        return nil
    }
    guard let place = ManagementSettings.listenAddress(listen) else {
        throw CommandFailure(
            ExitStatus.usage, "--api \(listen): expected a numeric ADDRESS:PORT such as 127.0.0.1:8080 or 0.0.0.0:8443")
    }
    guard let tokens = arguments["api-tokens"] else {
        throw CommandFailure(
            ExitStatus.usage,
            "--api needs --api-tokens FILE: the tokens it accepts (swell token add NAME --tokens FILE)")
    }
    var settings = ManagementSettings(address: place.address, port: place.port, tokens: tokens)
    settings.certificate = arguments["api-certificate"]
    settings.key = arguments["api-key"]
    guard (settings.certificate == nil) == (settings.key == nil) else {
        throw CommandFailure(ExitStatus.usage, "give --api-certificate and --api-key together")
    }
    settings.plainHTTP = arguments.has("api-plain-http")
    return settings
}

/// `SCENE`, `--display CONNECTOR=FILE` once, or several `--display`: each output its content.
private func outputsPlan(_ arguments: ParsedArguments) throws -> KioskPlan {
    let options = try outputOptions(arguments)
    let displays = try displayAssignments(arguments, options: options)
    if displays.count > 1 {
        if arguments["canvas"] != nil || arguments["viewport"] != nil {
            throw CommandFailure(
                ExitStatus.usage, "--canvas/--viewport show one tile on one display; give one --display with them")
        }
        let requests = try outputRequests(displays.map(\.connectorName), arguments, options: options)
        var plan = KioskPlan(
            layout: .outputs(
                zip(requests, displays).map { request, display in
                    KioskPlan.Output(
                        connector: request.connectorName, mode: request.mode, rotation: request.rotation,
                        content: display.file)
                }))
        plan.device = options.device
        return plan
    }
    guard arguments.positional.count == 1 || displays.count == 1 else {
        throw CommandFailure(ExitStatus.usage, "expected one scene name or scene file")
    }
    var output = KioskPlan.Output(
        connector: options.connector, mode: options.mode, rotation: options.rotation,
        content: displays.first?.file ?? arguments.positional[0], viewport: try viewportOption(arguments))
    // One --display is --connector NAME with its scene.
    if let display = displays.first {
        let request = try outputRequests([display.connectorName], arguments, options: options)[0]
        (output.connector, output.mode, output.rotation) = (display.connectorName, request.mode, request.rotation)
    }
    var plan = KioskPlan(layout: .outputs([output]))
    plan.driver = options.choice
    plan.device = options.device
    (plan.memoryWidth, plan.memoryHeight) = options.memorySize
    return plan
}

/// `SCENE --span A,B …`: one content over several outputs of one card.
private func spanPlan(_ span: SpanRequest, _ arguments: ParsedArguments) throws -> KioskPlan {
    let options = try outputOptions(arguments)
    for option in ["display", "connector", "canvas", "viewport"] where !arguments.values(option).isEmpty {
        throw CommandFailure(
            ExitStatus.usage,
            "--span names its outputs and makes their canvas; it goes without --\(option)"
                + (option == "canvas" || option == "viewport" ? " (a wall of several boxes)" : ""))
    }
    guard options.choice == .auto || options.choice == .drm else {
        throw CommandFailure(
            ExitStatus.usage, "--span drives DRM connectors of one card: leave --output fbdev/memory out")
    }
    guard arguments.positional.count == 1 else {
        throw CommandFailure(ExitStatus.usage, "--span shows one scene: give one scene name or scene file")
    }
    // The --touch values name outputs of the span: checked before any display is taken.
    do {
        _ = try TouchRouting.Request.checkAll(arguments.values("touch"), outputs: span.names)
    } catch {
        throw CommandFailure(ExitStatus.usage, error.message)
    }
    var plan = KioskPlan(
        layout: .span(
            KioskPlan.Span(
                outputs: try outputRequests(span.names, arguments, options: options), arrangement: span.arrangement,
                bezel: span.bezel, content: arguments.positional[0])))
    plan.device = options.device
    return plan
}

/// `--touch DEVICE=OUTPUT` and `--touch-matrix [DEVICE=]A,…,F`. With the outputs named, the
/// routes are checked against them now; a single output's name is known once it is open
/// (`checkRoutes`).
private func touchPlan(_ arguments: ParsedArguments, outputs: [String]) throws -> KioskPlan.Touch {
    var touch = KioskPlan.Touch()
    do {
        if outputs.count > 1 {
            touch.routes = try TouchRouting.Request.checkAll(arguments.values("touch"), outputs: outputs)
        } else {
            touch.routes = try arguments.values("touch").map { text throws(CommandFailure) in
                try TouchRouting.Request(parsing: text)
            }
        }
    } catch {
        throw CommandFailure(ExitStatus.usage, error.message)
    }
    let calibrations = try touchCalibrations(arguments)
    touch.calibration = calibrations.all
    touch.calibrations = calibrations.perDevice.map {
        KioskPlan.DeviceCalibration(device: $0.device, matrix: $0.matrix)
    }
    return touch
}
