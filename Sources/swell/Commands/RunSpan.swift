import SwellKiosk
import SwellRaster
import SwellScenes
import SwellSystem

/// `swell run SCENE --span A,B [--bezel PX] [--span-layout row|column | --span-at NAME=X,Y …]`:
/// one scene laid out for one canvas over several outputs of one card. The scene draws the
/// whole canvas once a refresh (`SpanCanvas`); each output shows its rectangle of it, and a touch
/// on any output reaches the scene where the canvas shows it. `--mode` and `--rotate` apply to
/// every output; the layout is of the pictures (after rotation).
func runSpan(_ span: SpanRequest, _ arguments: ParsedArguments) throws -> Int32 {
    let options = try spanOutputOptions(arguments)
    guard arguments.positional.count == 1 else {
        throw CommandFailure(ExitStatus.usage, "--span shows one scene: give one scene name or scene file")
    }
    let sceneName = arguments.positional[0]
    // The --touch values name outputs of the span: checked before any display is taken.
    do {
        _ = try TouchRouting.Request.checkAll(arguments.values("touch"), outputs: span.names)
    } catch {
        throw CommandFailure(ExitStatus.usage, error.message)
    }
    _ = try touchCalibrations(arguments)
    let seconds = try secondsOption(arguments)
    let threads = try arguments.integer("threads", default: onlineCores(), in: 1...256)
    let realtime = try realtimeClockOption(arguments)
    let player = try loadScenePlayer(sceneName, threads: threads, videoPacing: .live)
    let script = try arguments["input"].map(loadTouchScript)?.events ?? []
    let screenOffAfter = try positiveSecondsOption(arguments, "screen-off-after")

    let (loop, presenters, layout) = try openSpanLoop(span, arguments, options: options)
    let label = sceneName.split(separator: "/").last.map(String.init) ?? sceneName
    let watch = builtInScene(named: sceneName) == nil ? followed(SceneContent.files(of: player, sceneName)) : nil
    let shownOn = presenters.map(\.display.description).joined(separator: " + ")
    let content = SceneContent(
        player: player, script: script,
        reload: { try loadScenePlayer(sceneName, threads: threads, videoPacing: .live) },
        name: sceneName, watch: watch,
        announcement: { "running \(label) on \(shownOn) as one canvas, \(layout.description)" },
        realtime: realtime.map { ($0, realtimeSeconds) })
    let canvas = SpanCanvas(layout: layout, content: content)
    // The content follows its files once: the first output's round takes the changes up.
    let outputs = canvas.tiles.enumerated().map { OutputContent($1, watch: $0 == 0 ? watch : nil) }
    let runStart = monotonicSeconds()
    return try runOutputs(
        loop, outputs, presenters: presenters, seconds: seconds, screenOffAfter: screenOffAfter, since: runStart,
        summary: { "the canvas was drawn \(canvas.canvasFrames) times" })
}

/// The output options a span takes: DRM (auto or drm), no --connector, --display or wall tile.
private func spanOutputOptions(_ arguments: ParsedArguments) throws -> OutputOptions {
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
    return options
}

/// Opens the card, a presenter per output of the span (distinct CRTCs), lays the canvas out
/// over their pictures, takes the console, opens the touch devices routed to the outputs, and
/// makes the loop; on failure puts back whatever was taken.
private func openSpanLoop(_ span: SpanRequest, _ arguments: ParsedArguments, options: OutputOptions) throws -> (
    KioskLoop, [DRMPresenter], SpanLayout
) {
    let requests = try outputRequests(span.names, arguments, options: options)
    let presenters: [DRMPresenter]
    do {
        let card = try DRMCard.open(options.device)
        presenters = try DRMPresenter.openOutputs(card: card, requests)
    } catch {
        throw commandFailure(error)
    }
    func restoreAll() { for presenter in presenters.reversed() { presenter.restore() } }
    let layout: SpanLayout
    do {
        layout = try SpanLayout(
            outputs: presenters.map {
                SpanLayout.Output(name: $0.display.output, width: $0.shadow.width, height: $0.shadow.height)
            }, arrangement: span.arrangement, bezel: span.bezel)
    } catch {
        restoreAll()
        throw commandFailure(error)
    }
    let console = VTConsole.takeOver()
    do {
        let input = try openRoutedInput(arguments, presenters: presenters)
        let loop = try KioskLoop(presenters: presenters, input: input, console: console)
        loop.routeTouch = { .output($0.output) }
        return (loop, presenters, layout)
    } catch {
        console?.restore()
        restoreAll()
        throw (error as? KioskError).map(commandFailure) ?? error
    }
}

/// The touch devices, each routed to one of `presenters`' outputs (`--touch`, else the output of
/// its size, else the first) with its own calibration (`--touch-matrix [DEVICE=]…`); prints where
/// each goes, now and as devices come. A device that two `--touch` values name is a usage error.
func openRoutedInput(_ arguments: ParsedArguments, presenters: [any Presenter]) throws -> InputMonitor {
    let routing = try inputRouting(arguments, presenters: presenters)
    let input = InputMonitor(mapping: routing.mappings[0], routing: routing)
    // One output and no --touch: every device goes there, as before; nothing to say.
    let says = presenters.count > 1 || !routing.requests.isEmpty
    if says { for line in input.routeSummary { printNow(line) } }
    input.deviceAdded = { path, name in printNow("input added \(path) (\(name))") }
    input.deviceRemoved = { path, reason in printNow("input removed \(path) (\(reason))") }
    if says { input.deviceRouted = { printNow($0) } }
    try checkTouchedDevices(input, routing: routing)
    return input
}
