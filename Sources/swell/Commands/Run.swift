import SwellKiosk
import SwellRaster
import SwellScenes
import SwellSystem

let runVerb = Verb(
    name: "run",
    summary: "run a scene fullscreen on the display, with touch input, until stopped",
    synopsis:
        "SCENE|FILE.json|--display CONNECTOR=FILE [--output auto|drm|fbdev|memory] [--device PATH] [--connector NAME] [--mode WxH[@HZ]] "
        + "[--rotate 0|90|180|270] [--touch-matrix A,B,C,D,E,F] [--seconds S] [--threads N] [--input SCRIPT.json] "
        + "[--screen-off-after S] [--canvas WxH --viewport X,Y,W,H] [--clock realtime [--epoch TIME] [--period S]] "
        + "[--span A,B [--bezel PX] [--span-layout row|column | --span-at NAME=X,Y …]] [--touch DEVICE=OUTPUT …]",
    details: """
        Takes the display over (DRM/KMS page flips, else /dev/fb0), puts the VT in graphics mode,
        and runs a built-in scene (see 'swell scenes') or a scene file (see examples/) at the
        display's size, with touches and clicks from every evdev touch screen, tablet or mouse.
        While the scene is idle (an empty ripple pond, a slideshow between pictures) nothing is drawn
        and the process sleeps until input arrives or the scene's next timer. SIGTERM, SIGINT or
        SIGHUP (or --seconds) stops it and gives the console back.
        No display connected to the DRM card yet (a screen switched on after the kiosk booted): it
        says so and waits for one (at most --seconds). A display unplugged while running: it carries
        on, and sets the mode again when one is plugged back in. SIGUSR1 turns the display off
        (DPMS, or FBIOBLANK on fbdev) and stops drawing, SIGUSR2 turns it on again: night hours
        from cron or a systemd timer ('systemctl kill -s SIGUSR1 swell-kiosk'). --screen-off-after S
        powers it down after S seconds without a touch, until the next touch (which also reaches
        the scene); a screen turned off by SIGUSR1 stays off for touches.
        Once the first frame is on screen it prints 'swell: running SCENE on card0 Virtual-1
        1920x1080@60 (drm)'; at the end it prints the frames shown and the frame rate.
        A scene file is followed while running: saved again, renamed over or swapped for a
        symbolic link, the new scene starts at once on the same display (no restart, no flash of
        the console); a file that does not load is reported and the previous scene goes on. The
        other pages its buttons reach are followed too, and every text file a text element shows
        ("file"): a changed one changes only that text, one that no longer loads keeps the old.
        --touch-matrix corrects a touch screen that disagrees with its panel (measure it with
        'swell touch-test --calibrate').
        --input replays a touch script (touches/1, see examples/input/) in real time, on top of
        live input — for demonstrations and soak tests.
        A video wall of several boxes: each runs the same scene with --canvas (the whole wall)
        and --viewport (its tile, the display's size), and --clock realtime so that every box
        shows the scene at CLOCK_REALTIME − --epoch (kept in step by chrony or linuxptp; see
        docs/kiosk.md). A realtime clock stepped back by up to 2 s is run out at half speed, a
        larger or a forward step is followed at once. Touches reach only the box touched.
        One scene over several displays of one card as one canvas: --span A,B (side by side, left
        to right; --span-layout column stacks them), --bezel PX of canvas hidden between panels,
        or --span-at NAME=X,Y for each output (any sizes). A touch on any panel reaches the scene
        where the canvas shows it.
        With several outputs each touch device goes to the output whose panel has its size, else
        the first (a line says which); --touch DEVICE=OUTPUT picks it (DEVICE: its /dev/input path,
        a link to it, or its name), and --touch-matrix DEVICE=A,…,F calibrates that device alone.
        --mode and --rotate set every output; with --display or --span, --rotate HDMI-A-2=90 or
        --mode HDMI-A-2=1080x1920 (repeatable) sets one output, e.g. a portrait customer display
        beside a landscape menu board.

        """ + "\n" + kioskExitStatusText,
    options: kioskOutputOptions.filter { $0.name != "save" } + [
        .option("threads", "N", "render threads (default: one per core)"),
        .option("input", "SCRIPT.json", "replay a touch script in real time"),
        .option("screen-off-after", "S", "power the display down after S seconds without a touch; a touch wakes it"),
        touchMatrixOption,
        .option(
            "display", "CONNECTOR=FILE",
            "show FILE on that DRM connector (see 'swell displays'); repeatable, one scene per output"),
        touchRoutingOption,
    ] + spanOptions + wallOptions + clockOptions,
    run: runRun)

private func runRun(_ arguments: ParsedArguments) throws -> Int32 {
    if let span = try spanRequest(arguments) { return try runSpan(span, arguments) }
    var options = try outputOptions(arguments)
    let displays = try displayAssignments(arguments, options: options)
    // One --display is --connector NAME with its scene; several share the card and one loop.
    if displays.count > 1 { return try runOnDisplays(displays, arguments, options: options) }
    if let display = displays.first {
        options.connector = display.connectorName
        let request = try outputRequests([display.connectorName], arguments, options: options)[0]
        (options.mode, options.rotation) = (request.mode, request.rotation)
    }
    guard arguments.positional.count == 1 || displays.count == 1 else {
        throw CommandFailure(ExitStatus.usage, "expected one scene name or scene file")
    }
    let sceneName = displays.first?.file ?? arguments.positional[0]
    let seconds = try secondsOption(arguments)
    // A screen switched on after the kiosk booted: wait for it (at most --seconds).
    options.waitForDisplay = seconds ?? .infinity
    let threads = try arguments.integer("threads", default: onlineCores(), in: 1...256)
    let viewport = try viewportOption(arguments)
    let realtime = try realtimeClockOption(arguments)
    let player = try loadScenePlayer(sceneName, threads: threads, videoPacing: .live)
    let script = try arguments["input"].map(loadTouchScript)?.events ?? []
    let screenOffAfter = try positiveSecondsOption(arguments, "screen-off-after")

    _ = try touchCalibrations(arguments)
    let (loop, presenter) = try openKioskLoop(options, withInput: true, touch: arguments)
    do {
        try checkViewport(
            viewport, width: presenter.shadow.width, height: presenter.shadow.height,
            of: "the picture on \(presenter.display.description)")
    } catch {
        loop.restore()
        throw error
    }

    let runStart = monotonicSeconds()
    let label = sceneName.split(separator: "/").last.map(String.init) ?? sceneName
    // A scene file is followed while running, with its other pages and the text files they
    // show (a built-in name has no file).
    let watch = builtInScene(named: sceneName) == nil ? followed(SceneContent.files(of: player, sceneName)) : nil
    let content = SceneContent(
        player: player, script: script,
        reload: { try loadScenePlayer(sceneName, threads: threads, videoPacing: .live) },
        name: sceneName, watch: watch, announcement: { "running \(label) on \(presenter.display.description)" },
        viewport: viewport, realtime: realtime.map { ($0, realtimeSeconds) })
    let end: LoopEnd
    do {
        end = try loop.run(content, seconds: seconds, screenOffAfter: screenOffAfter, watch: watch)
    } catch {
        throw commandFailure(error)
    }
    let elapsed = monotonicSeconds() - runStart
    printNow("swell: \(content.frames) frames in \(formatMilliseconds(elapsed * 1000)) ms; \(presenter.pacing)")
    for line in videoSummary() { printNow("swell: " + line) }
    if case .signal = end { printError("swell run: stopped by \(StopSignals.name); display restored") }
    return ExitStatus.success
}

/// `swell run --display A=FILE --display B=FILE …`: one presenter per connector on one card
/// (each on its own CRTC, with its own flips and pacing), one content per output, one loop.
/// `--mode` and `--rotate` apply to every output, or with `CONNECTOR=VALUE` to one (`outputRequests`);
/// `--input` replays on the first; each touch
/// device reaches one output (`--touch`, else the one of its size, else the first). A wall's
/// `--canvas`/`--viewport` is refused: its tile is one display's.
private func runOnDisplays(
    _ displays: [DisplayAssignment], _ arguments: ParsedArguments, options: OutputOptions
) throws -> Int32 {
    if arguments["canvas"] != nil || arguments["viewport"] != nil {
        throw CommandFailure(
            ExitStatus.usage, "--canvas/--viewport show one tile on one display; give one --display with them")
    }
    let seconds = try secondsOption(arguments)
    let threads = try arguments.integer("threads", default: onlineCores(), in: 1...256)
    let realtime = try realtimeClockOption(arguments)
    let players = try displays.map { try loadScenePlayer($0.file, threads: threads, videoPacing: .live) }
    let script = try arguments["input"].map(loadTouchScript)?.events ?? []
    let screenOffAfter = try positiveSecondsOption(arguments, "screen-off-after")
    // The --touch values name outputs of this run: checked before any display is taken.
    do {
        _ = try TouchRouting.Request.checkAll(arguments.values("touch"), outputs: displays.map(\.connectorName))
    } catch {
        throw CommandFailure(ExitStatus.usage, error.message)
    }
    _ = try touchCalibrations(arguments)
    let requests = try outputRequests(displays.map(\.connectorName), arguments, options: options)
    let (loop, presenters) = try openDisplaysLoop(requests, options: options, arguments: arguments)

    let runStart = monotonicSeconds()
    var outputs: [OutputContent] = []
    for (index, display) in displays.enumerated() {
        let presenter = presenters[index]
        let name = display.file
        let label = name.split(separator: "/").last.map(String.init) ?? name
        let watch = builtInScene(named: name) == nil ? followed(SceneContent.files(of: players[index], name)) : nil
        let content = SceneContent(
            player: players[index], script: index == 0 ? script : [],
            reload: { try loadScenePlayer(name, threads: threads, videoPacing: .live) }, name: name, watch: watch,
            announcement: { "running \(label) on \(presenter.display.description)" },
            realtime: realtime.map { ($0, realtimeSeconds) })
        outputs.append(OutputContent(content, watch: watch))
    }
    return try runOutputs(
        loop, outputs, presenters: presenters, seconds: seconds, screenOffAfter: screenOffAfter, since: runStart)
}

/// Runs a loop of several outputs, then prints each output's frame count and, after a stop
/// signal, the outputs whose consoles were given back (`--display` and `--span` alike);
/// `summary` adds a line of the caller's after the frame counts.
func runOutputs(
    _ loop: KioskLoop, _ outputs: [OutputContent], presenters: [DRMPresenter], seconds: Double?,
    screenOffAfter: Double?, since runStart: Double, summary: (() -> String)? = nil
) throws -> Int32 {
    let end: LoopEnd
    do {
        end = try loop.run(outputs, seconds: seconds, screenOffAfter: screenOffAfter)
    } catch {
        throw commandFailure(error)
    }
    let elapsed = monotonicSeconds() - runStart
    for (index, presenter) in presenters.enumerated() {
        printNow(
            "swell: \(presenter.display.output): \(loop.framesShown[index]) frames in "
                + "\(formatMilliseconds(elapsed * 1000)) ms; \(presenter.pacing)")
    }
    if let summary { printNow("swell: \(summary())") }
    for line in videoSummary() { printNow("swell: " + line) }
    if case .signal = end {
        let names = presenters.map(\.display.output).joined(separator: ", ")
        printError("swell run: stopped by \(StopSignals.name); display restored on \(names)")
    }
    return ExitStatus.success
}

/// Opens the card, one DRM presenter per `--display` (distinct CRTCs), the console and the
/// touch devices (each routed to its output, `openRoutedInput`), and the loop over them; on
/// failure puts back whatever was taken.
private func openDisplaysLoop(
    _ requests: [DRMOutputRequest], options: OutputOptions, arguments: ParsedArguments
) throws -> (KioskLoop, [DRMPresenter]) {
    let presenters: [DRMPresenter]
    do {
        let card = try DRMCard.open(options.device)
        presenters = try DRMPresenter.openOutputs(card: card, requests)
    } catch {
        throw commandFailure(error)
    }
    let console = VTConsole.takeOver()
    do {
        let input = try openRoutedInput(arguments, presenters: presenters)
        let loop = try KioskLoop(presenters: presenters, input: input, console: console)
        loop.routeTouch = { .output($0.output) }
        return (loop, presenters)
    } catch {
        console?.restore()
        for presenter in presenters.reversed() { presenter.restore() }
        throw (error as? KioskError).map(commandFailure) ?? error
    }
}

/// A scene as the kiosk loop's content. The loop's clock is the only one: the scene's time is
/// the loop's time less the moment the scene started, which a changed scene file moves to when
/// the new scene was taken up (it starts afresh). A changed text file only changes the text of
/// the elements showing it (the scene goes on).
final class SceneContent: KioskContent {
    private var player: ScenePlayer
    /// Touches replayed in real time (--input), in the scene's time, and the next one due.
    private let script: [SwellScenes.TouchEvent]
    private var nextScripted = 0
    private let reload: () throws -> ScenePlayer
    private let name: String
    /// What follows the scene's files (nil: not followed); a reloaded scene may name others.
    private let watch: FileWatch?
    private let announcement: () -> String
    /// The loop time at which the scene started.
    private var sceneStart = 0.0
    private(set) var frames = 0
    /// A video wall's tile of the canvas (nil: the display is the whole screen).
    private let viewport: Viewport?
    /// `--clock realtime`: the scene time from CLOCK_REALTIME (read by the function given), and
    /// the loop time and scene time it last gave (the loop passes one time per round).
    private var realtime: (clock: RealtimeSceneClock, read: () -> Double)?
    private var mapped = (loop: -Double.infinity, scene: 0.0)

    init(
        player: ScenePlayer, script: [SwellScenes.TouchEvent], reload: @escaping () throws -> ScenePlayer,
        name: String, watch: FileWatch? = nil, announcement: @escaping () -> String, viewport: Viewport? = nil,
        realtime: (RealtimeSceneClock, () -> Double)? = nil
    ) {
        self.player = player
        self.script = script
        self.reload = reload
        self.name = name
        self.watch = watch
        self.announcement = announcement
        self.viewport = viewport
        self.realtime = realtime.map { (clock: $0.0, read: $0.1) }
        player.viewport = viewport
    }

    /// The scene's time at loop time `time`: since the scene started, or from the realtime
    /// clock. A realtime scene time that goes back (the period wrapped, or the clock stepped
    /// back by more than `RealtimeSceneClock.largestHeldStep`) starts the scene afresh, as a
    /// box started then would show it.
    private func sceneTime(_ time: Double) -> Double {
        guard var realtime else { return time - sceneStart }
        if time == mapped.loop { return mapped.scene }
        let scene = realtime.clock.sceneTime(realtime: realtime.read(), monotonic: time)
        self.realtime = realtime
        if scene < mapped.scene || mapped.loop == -Double.infinity { restart(realtime.clock) }
        mapped = (time, scene)
        return scene
    }

    private func restart(_ clock: RealtimeSceneClock) {
        if mapped.loop != -Double.infinity, let fresh = try? reload() {
            player = fresh
            player.viewport = viewport
        }
        // A text element's clock reads the Unix time the scene stands for.
        player.use(WallClock(epochAtZero: clock.cycleStart(at: clock.unwrappedTime), fixedOffset: nil))
    }

    /// The files a kiosk showing `player`, loaded from the scene file `name`, follows: that file,
    /// the other pages of its page graph and every text file their text elements show.
    static func files(of player: ScenePlayer, _ name: String) -> [String] {
        [name] + player.pageFiles + player.textFiles
    }

    func render(at time: Double, into surface: PixelSurface) -> Damage {
        let sceneTime = sceneTime(time)
        player.screen = player.screenSize(for: surface)
        while nextScripted < script.count && script[nextScripted].time <= sceneTime {
            player.handle(script[nextScripted])
            nextScripted += 1
        }
        // The player's damage: a newly loaded scene's player (or a new surface) draws whole.
        let damage = player.render(at: sceneTime, into: surface)
        frames += 1
        return damage
    }

    func handle(_ touch: SwellKiosk.TouchEvent, at time: Double) {
        // On a wall's tile the touch lands on the canvas where the tile shows it.
        var event = sceneTouch(touch, at: sceneTime(time))
        event.x += Double(viewport?.rect.x0 ?? 0)
        event.y += Double(viewport?.rect.y0 ?? 0)
        player.handle(event)
    }

    func isIdle(at time: Double) -> Bool {
        // A pending scripted touch keeps the loop drawing until it has been delivered.
        nextScripted >= script.count && player.isIdle(at: sceneTime(time))
    }

    func nextWake(after time: Double) -> Double? {
        let scene = sceneTime(time)
        return player.nextWake(after: scene).map { $0 - scene + time }
    }

    /// A changed page file reloads the page graph (all its pages checked again) on the same
    /// display and console: no modeset, no flash of the console as a restart gives. The page
    /// that was shown stays shown. A changed text file changes only its elements' text.
    func filesChanged(_ paths: [String], at time: Double) {
        let pages = [name] + player.pageFiles
        guard paths.contains(where: pages.contains) else {
            for line in player.takeUp(changedTextFiles: paths, read: { try readWholeFile($0) }) { kioskWarn(line) }
            return
        }
        let changed = paths.first(where: pages.contains) ?? name
        do {
            let shownPage = player.pageName
            player = try reload()
            player.show(page: shownPage)
            player.viewport = viewport
            if let realtime {
                player.use(
                    WallClock(
                        epochAtZero: realtime.clock.cycleStart(at: realtime.clock.unwrappedTime), fixedOffset: nil))
            }
            sceneStart = time
            nextScripted = script.count
            watch?.follow(Self.files(of: player, name))
            kioskWarn("\(changed) changed: running the new scene")
        } catch {
            kioskWarn(
                "\(changed) changed but was not loaded (the previous scene goes on): "
                    + CommandFailure.message(of: error))
        }
    }

    func shown() { announceOnScreen(announcement()) }
}

/// The kiosk's touch event (screen pixels, a finger id) as the scene's (with the time it arrived).
func sceneTouch(_ event: SwellKiosk.TouchEvent, at time: Double) -> SwellScenes.TouchEvent {
    let phase: SwellScenes.TouchEvent.Phase
    switch event.phase {
    case .began: phase = .began
    case .moved: phase = .moved
    case .ended: phase = .ended
    }
    return SwellScenes.TouchEvent(phase, finger: event.id, x: event.x, y: event.y, time: time)
}
