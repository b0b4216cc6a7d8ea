import SwellAPI
import SwellDisplay
import SwellInput
import SwellLoop
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellService
import SwellSystem

/// The one road of `swell run`: loads what the plan shows (a scene that does not load fails
/// before any display is taken), opens its outputs, and runs a loop of one content per output
/// (a span: one content over a canvas the outputs share) until a stop signal or `seconds`.
/// With `kioskFile`, that file is followed too (`KioskFileFollower`).
func runPlan(_ plan: KioskPlan, seconds: Double?, kioskFile: String? = nil) throws -> Int32 {
    // The zone first, while this is the only thread.
    try useScheduleTimeZone(plan, file: kioskFile ?? "the kiosk")
    let threads = plan.threads ?? onlineCores()
    let load = { (name: String) in
        try loadScenePlayer(name, threads: threads, videoPacing: .live, contentFolder: plan.contentFolder)
    }
    // With a schedule, each output starts with what it chooses now.
    let wallAtStart = realtimeSeconds()
    let firstContents = plan.outputContents.indices.map { index in
        plan.schedule.map { schedule in
            ScheduledContent.content(
                of: ScheduledContent.look(schedule, plan.scheduleOutput(index), at: wallAtStart).decision,
                schedule: schedule, ownContent: plan.outputContents[index])
        } ?? plan.outputContents[index]
    }
    let players = try firstContents.map(load)
    let script = try plan.script.map(loadTouchScript) ?? TouchScript(events: [])
    // The API's tokens, certificate and folder are checked before any display is taken.
    let management = try plan.api.map { try prepareManagement($0, contentFolder: try apiContentFolder(plan)) }
    let opened = try openPlanOutputs(plan, seconds: seconds, fromKioskFile: kioskFile != nil)
    let runStart = monotonicSeconds()

    let follower = kioskFile.map { KioskFileFollower(path: $0, plan: plan) }
    var contents: [SceneContent] = []
    for (index, player) in players.enumerated() {
        let name = firstContents[index]
        let shownOn = opened.description(ofContent: index)
        let label = name.split(separator: "/").last.map(String.init) ?? name
        // The kiosk file (and the schedule file it names) is followed beside the first content's files.
        let others = index == 0 ? [kioskFile, plan.scheduleFile].compactMap { $0 } : []
        let files = others + SceneContent.files(of: player, name)
        let watch = files.isEmpty ? nil : followed(files)
        let content = SceneContent(
            player: player, name: name, script: index == 0 ? script : TouchScript(events: []), load: load,
            watch: watch, otherFiles: others,
            otherFilesChanged: { _, time in follower?.fileChanged(at: time) },
            shown: { announceOnScreen("running \(label) on \(shownOn)") },
            viewport: opened.viewport, realtime: plan.clock.map { ($0, realtimeSeconds) })
        contents.append(content)
    }
    follower?.contents = contents
    let scheduled = plan.schedule.map { schedule in
        contents.indices.map { index in
            ScheduledContent(
                scene: contents[index], schedule: schedule, output: plan.scheduleOutput(index),
                ownContent: plan.outputContents[index],
                prefix: opened.loop.presenters.count > 1 && opened.span == nil
                    ? opened.loop.presenters[index].display.output + ": " : "")
        }
    }
    follower?.scheduled = scheduled ?? []
    // What each output runs: its scene, or the schedule's choice of scenes (and with the API,
    // what it shows in their place).
    var shown: [any KioskContent] = scheduled ?? contents
    var server: HTTPServer?
    if let management {
        let managed = shown.indices.map {
            ManagedContent(
                shown[$0], scene: contents[$0], scheduled: scheduled?[$0], ownContent: plan.outputContents[$0],
                prefix: opened.loop.presenters.count > 1 && opened.span == nil
                    ? opened.loop.presenters[$0].display.output + ": " : "")
        }
        shown = managed
        do {
            let mailbox = try LoopMailbox()
            opened.loop.mailbox = mailbox
            server = try management.start(
                KioskRemote(
                    loop: opened.loop, mailbox: mailbox, managed: managed, span: opened.span != nil,
                    root: management.folder.root, load: load))
        } catch {
            opened.loop.restore()
            throw (error as? Errno).map { CommandFailure(ExitStatus.unavailable, "the API: \($0)") } ?? error
        }
    }
    defer {
        opened.loop.mailbox?.close()
        server?.stop()
    }
    let outputs: [OutputContent]
    var summary: (() -> String)?
    if let layout = opened.span {
        let canvas = SpanCanvas(layout: layout, content: shown[0])
        // The content follows its files once: the first output's round takes the changes up.
        outputs = canvas.tiles.enumerated().map {
            OutputContent($1, watch: $0 == 0 ? contents[0].watch : nil, hours: hours(plan, scheduled?[0]))
        }
        summary = { "the canvas was drawn \(canvas.canvasFrames) times" }
    } else {
        outputs = shown.indices.map {
            OutputContent(shown[$0], watch: contents[$0].watch, hours: hours(plan, scheduled?[$0]))
        }
    }
    let end: LoopEnd
    do {
        end = try opened.loop.run(
            outputs, seconds: seconds, screenOffAfter: plan.screenOffAfter, offHours: plan.offHours)
    } catch {
        throw commandFailure(error)
    }
    report(end, opened, contents: contents, since: runStart, summary: summary)
    return ExitStatus.success
}

/// The API's content folder: the kiosk's own, else the folder of the first output's scene file.
private func apiContentFolder(_ plan: KioskPlan) throws -> String {
    if let folder = plan.contentFolder { return folder }
    let content = plan.outputContents[0]
    guard builtInScene(named: content) == nil else {
        throw CommandFailure(
            ExitStatus.usage,
            "the API needs a content folder: the kiosk shows the built-in scene \(content); show a scene file, or give a content folder"
        )
    }
    guard let slash = content.lastIndex(of: "/") else { return "." }
    return slash == content.startIndex ? "/" : String(content[..<slash])
}

/// When an output's screen is off by the clock: its schedule's "off" windows, the plan's night
/// hours, or both.
private func hours(_ plan: KioskPlan, _ scheduled: ScheduledContent?) -> (any ScreenHours)? {
    switch (scheduled, plan.offHours) {
    case (let scheduled?, let night?): EitherHours(scheduled, night)
    case (let scheduled?, nil): scheduled
    case (nil, let night?): night
    case (nil, nil): nil
    }
}

/// The frame counts at the end of a run, then the outputs given back after a stop signal.
private func report(
    _ end: LoopEnd, _ opened: PlanOutputs, contents: [SceneContent], since runStart: Double,
    summary: (() -> String)?
) {
    let elapsed = formatMilliseconds((monotonicSeconds() - runStart) * 1000)
    let presenters = opened.loop.presenters
    if presenters.count == 1 {
        printNow("swell: \(contents[0].frames) frames in \(elapsed) ms; \(presenters[0].pacing)")
    } else {
        for (index, presenter) in presenters.enumerated() {
            printNow(
                "swell: \(presenter.display.output): \(opened.loop.framesShown[index]) frames in \(elapsed) ms; "
                    + "\(presenter.pacing)")
        }
    }
    if let summary { printNow("swell: \(summary())") }
    for line in videoSummary() { printNow("swell: " + line) }
    guard case .signal = end else { return }
    if presenters.count == 1 {
        printError("swell run: stopped by \(StopSignals.name); display restored")
    } else {
        let names = presenters.map(\.display.output).joined(separator: ", ")
        printError("swell run: stopped by \(StopSignals.name); display restored on \(names)")
    }
}

/// The opened outputs of a plan and their loop.
struct PlanOutputs {
    let loop: KioskLoop
    /// A span's canvas over the outputs (nil: each output its own content).
    let span: SpanLayout?
    /// A wall tile's viewport (one output).
    let viewport: Viewport?

    /// Where content `index` is shown, for its "running … on …" line.
    func description(ofContent index: Int) -> String {
        guard let span else { return loop.presenters[index].display.description }
        let shownOn = loop.presenters.map(\.display.description).joined(separator: " + ")
        return "\(shownOn) as one canvas, \(span.description)"
    }
}

/// Opens every output of `plan`, the console and the touch devices (each routed to its output),
/// and makes the loop; on failure puts back whatever was taken. One output goes through
/// `openPresenter` (DRM, else fbdev, or memory; it waits up to `seconds` for a display to be
/// plugged in); several, or a span, are DRM presenters of one card on distinct CRTCs. A span's
/// layout problem is worded as the plan was written (`fromKioskFile`).
func openPlanOutputs(_ plan: KioskPlan, seconds: Double?, fromKioskFile: Bool) throws -> PlanOutputs {
    switch plan.layout {
    case .outputs(let outputs) where outputs.count == 1:
        return try openSingleOutput(plan, outputs[0], seconds: seconds)
    case .outputs(let outputs):
        let requests = outputs.map {
            DRMOutputRequest(connectorName: $0.connector ?? "", mode: $0.mode, rotation: $0.rotation)
        }
        let presenters = try openDRMOutputs(requests, device: plan.device)
        let loop = try makeLoop(presenters, touch: plan.touch)
        return PlanOutputs(loop: loop, span: nil, viewport: nil)
    case .span(let span):
        let presenters = try openDRMOutputs(span.outputs, device: plan.device)
        let layout: SpanLayout
        do {
            layout = try SpanLayout(
                outputs: presenters.map {
                    SpanLayout.Output(name: $0.display.output, width: $0.shadow.width, height: $0.shadow.height)
                }, arrangement: span.arrangement, bezel: span.bezel)
        } catch {
            for presenter in presenters.reversed() { presenter.restore() }
            let words = fromKioskFile ? SpanLayout.Words.kioskFile : SpanLayout.Words.commandLine
            throw CommandFailure(ExitStatus.usage, SpanLayout.message(error, words))
        }
        return PlanOutputs(loop: try makeLoop(presenters, touch: plan.touch), span: layout, viewport: nil)
    }
}

private func openSingleOutput(_ plan: KioskPlan, _ output: KioskPlan.Output, seconds: Double?) throws
    -> PlanOutputs
{
    var options = OutputOptions()
    options.choice = plan.driver
    options.device = plan.device
    options.connector = output.connector
    options.mode = output.mode
    options.rotation = output.rotation
    options.memorySize = (plan.memoryWidth, plan.memoryHeight)
    // A screen switched on after the kiosk booted: wait for it (at most --seconds).
    options.waitForDisplay = seconds ?? .infinity
    let (presenter, console) = try openKioskOutput(options)
    do {
        try checkViewport(
            output.viewport, width: presenter.shadow.width, height: presenter.shadow.height,
            of: "the picture on \(presenter.display.description)")
        let input = options.choice == .memory ? nil : try openRoutedInput(plan.touch, presenters: [presenter])
        let loop = try KioskLoop(presenter: presenter, input: input, console: console)
        return PlanOutputs(loop: loop, span: nil, viewport: output.viewport)
    } catch {
        console?.restore()
        presenter.restore()
        throw (error as? KioskError).map(commandFailure) ?? error
    }
}

/// Opens the card and one DRM presenter per request (distinct CRTCs); a connector the card does
/// not have lists those it has (exit 69).
private func openDRMOutputs(_ requests: [DRMOutputRequest], device: String?) throws -> [DRMPresenter] {
    do {
        let card = try DRMCard.open(device)
        try checkConnectors(
            requests.map(\.connectorName), cardPath: card.path, connectors: card.connectors.map { ($0.name, $0.status) }
        )
        return try DRMPresenter.openOutputs(card: card, requests)
    } catch {
        throw commandFailure(error)
    }
}

/// Refuses connector names `connectors` (a card's, with their status) lacks, listing the card's.
func checkConnectors(_ names: [String], cardPath: String, connectors: [(name: String, status: String)])
    throws(KioskError)
{
    let unknown = unknownConnectors(names, among: connectors)
    guard !unknown.isEmpty else { return }
    let lines = unknown.map { "\(cardPath): no connector named \($0); it has \(connectorList(connectors))" }
    throw KioskError(.noConnector, lines.joined(separator: "\n"))
}

/// The console, the routed touch devices and the loop over `presenters`; puts them all back
/// when any of it fails.
private func makeLoop(_ presenters: [DRMPresenter], touch: KioskPlan.Touch) throws -> KioskLoop {
    let console = VTConsole.takeOver()
    do {
        let input = try openRoutedInput(touch, presenters: presenters)
        let loop = try KioskLoop(presenters: presenters, input: input, console: console)
        loop.routeTouch = { .output($0.output) }
        return loop
    } catch {
        console?.restore()
        for presenter in presenters.reversed() { presenter.restore() }
        throw (error as? KioskError).map(commandFailure) ?? error
    }
}

/// The touch devices, each routed to one of `presenters`' outputs (its route, else the output of
/// its size, else the first) with its own calibration; prints where each goes, now and as
/// devices come. A device that two routes name is a usage error.
func openRoutedInput(_ touch: KioskPlan.Touch, presenters: [any Presenter]) throws -> InputMonitor {
    let routing = try inputRouting(touch, presenters: presenters)
    let input = InputMonitor(mapping: routing.mappings[0], routing: routing)
    // One output and no routes: every device goes there, as before; nothing to say.
    let says = presenters.count > 1 || !routing.requests.isEmpty
    if says { for line in input.routeSummary { printNow(line) } }
    input.deviceAdded = { path, name in printNow("input added \(path) (\(name))") }
    input.deviceRemoved = { path, reason in printNow("input removed \(path) (\(reason))") }
    if says { input.deviceRouted = { printNow($0) } }
    try checkTouchedDevices(input, routing: routing)
    return input
}
