import SwellDisplay
import SwellInput
import SwellJSON
import SwellLoop
import SwellOutput
import SwellRaster
import SwellScenes
import SwellService
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `swell bench SCENE`: the scene's real animation on a stepped clock, rendered into a
/// presenter's shadow buffer (a display or memory) and presented, each step timed.
func benchScene(_ sceneName: String, _ arguments: ParsedArguments) throws -> Int32 {
    let threads = try arguments.integer("threads", default: onlineCores(), in: 1...256)
    let player = try loadScenePlayer(sceneName, threads: threads)
    player.bandThreads = try arguments.integer("band-threads", default: threads, in: 1...256)
    player.sharesStrokeColumns = !arguments.has("per-band-columns")
    if arguments.has("row-bands") { player.stripCut = .never }
    player.wakesHelpersEarly = !arguments.has("late-wake")
    player.pinsHelpers = !arguments.has("unpinned-helpers")
    if arguments["strip-columns"] != nil {
        player.stripColumns = try arguments.integer("strip-columns", default: 64, in: 16...4096)
    }
    let bench = try SceneBench(arguments, threads: threads, defaultSeconds: 20)
    defer { bench.close() }
    let name = sceneName.split(separator: "/").last.map(String.init) ?? sceneName
    let series = try bench.run(player, name: name)
    try bench.holdIfAsked()
    print(
        "swell bench: \(name) on \(bench.location), \(series.times.render.count) frames at "
            + "\(formatHertz(bench.refresh)) (stepped clock), \(bench.describedInput)")
    if bench.presenting { print("presenting: \(bench.presenter.pacing)") }
    for line in videoCosts() { print(line) }
    if let diff = bench.diff, diff.framePixels > 0 {
        print("damage diff: \(diff.damagedPixels * 100 / diff.framePixels) % of the frames' pixels copied")
    }
    try reportScene(
        series, budget: bench.budget, arguments: arguments, title: "swell bench \(name) (\(bench.location))")
    return try checkChecksums([series], arguments: arguments)
}

/// What every scene benchmark shares: the output (memory unless --output says otherwise), the
/// stepped clock's rate and the frame budget, the number of frames, and the touches.
struct SceneBench {
    let presenter: any Presenter
    let console: VTConsole?
    let presenting: Bool
    let threads: Int
    let refresh: Double
    let budget: Double
    let frames: Int
    let script: [SwellScenes.TouchEvent]
    let describedInput: String
    /// --damage: the rectangle each frame presents (nil: whole frames, or `diff`).
    let damage: Damage?
    /// --damage diff: each frame's damage found against the frame before.
    let diff: FrameDiffDamage?
    /// --hold: the last frame stays on the display until a stop signal.
    let hold: Bool
    /// Every frame drawn whole (`--whole-frames`) rather than only what changed.
    let wholeFrames: Bool
    /// `--clock-step S`: the animation held at time 0 and the wall clock moved S s a frame.
    let clockStep: Double?
    /// A video wall's tile (`--canvas`, `--viewport`): each frame is this rectangle of the canvas.
    let viewport: Viewport?
    /// `--pace MS`: seconds slept after each frame, untimed (a paced kiosk's idle time between
    /// frames, when the render helpers go to sleep); nil: frames back to back.
    let pace: Double?

    /// Opens the output; `defaultSeconds` of animation unless --seconds or --frames say otherwise.
    init(_ arguments: ParsedArguments, threads: Int, defaultSeconds: Double) throws {
        var options = try outputOptions(arguments)
        if arguments["output"] == nil { options.choice = .memory }
        viewport = try viewportOption(arguments)
        clockStep = try positiveSecondsOption(arguments, "clock-step")
        pace = try arguments["pace"].map { text in
            guard let milliseconds = Double(text), milliseconds.isFinite, milliseconds > 0 else {
                throw CommandFailure(ExitStatus.usage, "--pace wants a number of milliseconds > 0, not '\(text)'")
            }
            return milliseconds / 1000
        }
        if let viewport, options.choice == .memory, arguments["size"] == nil {
            options.memorySize = (viewport.width, viewport.height)
        }
        (presenter, console) = try openKioskOutput(options)
        presenting = options.choice != .memory
        self.threads = threads
        do {
            refresh =
                try arguments["refresh"].map { _ in Double(try arguments.integer("refresh", default: 60, in: 1...1000))
                }
                ?? (presenting ? presenter.display.refreshHz : 60)
            budget = 1000 / refresh
            let (width, height) = (presenter.width, presenter.height)
            let diffing = arguments["damage"] == "diff"
            damage = try arguments["damage"].flatMap {
                diffing ? nil : try damageOption($0, width: width, height: height)
            }
            diff = diffing ? FrameDiffDamage(width: width, height: height) : nil
            hold = arguments.has("hold")
            try checkViewport(
                viewport, width: presenter.shadow.width, height: presenter.shadow.height,
                of: presenting ? presenter.display.description : "--size")
            let seconds = try secondsOption(arguments) ?? defaultSeconds
            frames = try arguments.integer(
                "frames", default: max(1, Int((seconds * refresh).rounded())), in: 1...10_000_000)
            script =
                try arguments["input"].map(loadTouchScript)?.events
                ?? draggingFingers(
                    width: viewport?.canvasWidth ?? presenter.shadow.width,
                    height: viewport?.canvasHeight ?? presenter.shadow.height, seconds: Double(frames) / refresh)
        } catch {
            console?.restore()
            presenter.restore()
            throw error
        }
        wholeFrames = arguments.has("whole-frames")
        describedInput =
            "\(threads) thread\(threads == 1 ? "" : "s"), \(wholeFrames ? "whole frames" : "damage only"), "
            + (clockStep.map { "animation held and no touches, wall clock +\(formatMilliseconds($0)) s a frame" }
                ?? (arguments["input"] == nil ? "three dragging fingers" : "touch script \(arguments["input"]!)"))
    }

    var location: String { presenting ? presenter.display.description : "memory" }

    func run(_ player: ScenePlayer, name: String) throws -> BenchSeries {
        player.tracksDamage = !wholeFrames
        player.viewport = viewport
        return try benchFrames(
            player, name: name, on: presenter, presenting: presenting, refresh: refresh, frames: frames, script: script,
            damage: damage, diff: diff, clockStep: clockStep, pace: pace)
    }

    /// --hold: keeps the last frame on the display until SIGTERM, SIGINT or SIGHUP.
    func holdIfAsked() throws {
        guard hold, presenting else { return }
        let pipe = try StopSignals.install()
        announceOnScreen("holding the last frame on \(presenter.display.description)")
        while StopSignals.received == nil { _ = pipe.waitReadable(timeoutMilliseconds: 1000) }
    }

    /// Gives the console and the display back.
    func close() {
        console?.restore()
        presenter.restore()
    }
}

/// Renders `frames` frames of `player` on a stepped clock at `refresh` Hz into the presenter's
/// shadow buffer, feeding it `script`'s touches, and presents each one when `presenting`; each
/// step timed. Stops early on a stop signal. The checksum is the last frame's.
func benchFrames(
    _ player: ScenePlayer, name: String, on presenter: any Presenter, presenting: Bool, refresh: Double, frames: Int,
    script: [SwellScenes.TouchEvent], damage: Damage? = nil, diff: FrameDiffDamage? = nil, clockStep: Double? = nil,
    pace: Double? = nil
) throws -> BenchSeries {
    var times = FrameTimes()
    times.reserve(frames)
    var progress = ProgressBar(total: frames, label: name)
    // A held animation takes no touches.
    var playback = ScriptedPlayback(player: player, script: TouchScript(events: clockStep == nil ? script : []))
    let surface = presenter.shadow.surface
    player.screen = player.screenSize(for: surface)
    times.startup = try startupFrame(player, on: presenter, presenting: presenting, clockStep: clockStep)
    // The end of the frame period before (monotonic seconds).
    var periodEnd = -Double.infinity
    for index in 0..<frames {
        if StopSignals.received != nil { break }
        // --clock-step: the animation stands still at 0 and only the wall clock moves.
        let time = clockStep == nil ? Double(index) / refresh : 0
        if let clockStep { player.use(steppedClock(index + 1, clockStep)) }
        // A kiosk's render thread sleeps for the rest of each frame period, and the threads that
        // work ahead (pictures decoded and scaled, a playlist's next item prepared) run then and
        // beside the frames. The stepped clock leaves them no such time, so the bench gives it:
        // while they have work it waits, untimed (and reported), up to the end of the period of
        // the frame before, no longer. What a frame needs and is still not done then is waited
        // for inside `render`, in the frame's time.
        let waitStart = monotonicSeconds()
        while player.hasBackgroundWork {
            let now = monotonicSeconds()
            guard now < periodEnd else { break }
            sleepUntil(monotonic: min(periodEnd, now + 0.000_2))
        }
        let wait = (monotonicSeconds() - waitStart) * 1000
        if wait > 0.05 {
            times.waited += wait
            times.waits += 1
            times.longestWait = max(times.longestWait, wait)
        }
        playback.deliver(upTo: time)
        let started = monotonicSeconds()
        periodEnd = started + 1 / refresh
        let drawn = player.render(at: time, into: surface)
        let renderedAt = monotonicSeconds()
        if presenting {
            do {
                // --damage and --damage diff measure a given copy; otherwise what the player drew.
                try presenter.present(damage: damage ?? diff?.damage(of: surface) ?? drawn)
            } catch {
                throw commandFailure(error)
            }
        }
        times.render.append((renderedAt - started) * 1000)
        times.copy.append(presenting ? presenter.lastCopySeconds * 1000 : 0)
        // Memory has nothing to present: the frame is done when it is rendered.
        times.present.append(presenting ? (monotonicSeconds() - renderedAt) * 1000 : 0)
        progress.update(index + 1)
        if let pace { sleepUntil(monotonic: monotonicSeconds() + pace) }
    }
    progress.finish()
    return BenchSeries(
        name: name, width: surface.width, height: surface.height, times: times, checksum: checksum(surface))
}

/// Draws (and presents) the scene's first frame, at time 0, untimed by the series: its picture
/// decodes (the next picture's too, decoded ahead on another thread, which a kiosk has done
/// long before a first tap) and text layout are start-up costs. Frame 0 of the series then draws only what its
/// touches changed. Returns its milliseconds.
func startupFrame(_ player: ScenePlayer, on presenter: any Presenter, presenting: Bool, clockStep: Double?) throws
    -> Double
{
    // The dump's fixed wall clock, so a page with a clock gives the same checksum on every run.
    player.use(steppedClock(0, clockStep ?? 0))
    let started = monotonicSeconds()
    let drawn = player.render(at: 0, into: presenter.shadow.surface)
    player.finishBackgroundWork()
    let milliseconds = (monotonicSeconds() - started) * 1000
    if presenting {
        do { try presenter.present(damage: drawn) } catch { throw commandFailure(error) }
    }
    return milliseconds
}

/// The wall clock of frame `index` under `--clock-step S`: `dumpClock` (2026-01-01 12:00 UTC)
/// moved S seconds a frame, so every frame of a minute-clock page at S = 60 shows a new minute.
func steppedClock(_ index: Int, _ step: Double) -> WallClock {
    var clock = WallClock.dumpClock
    clock.epochAtZero += Double(index) * step
    return clock
}

/// `--damage X,Y,W,H` as damage inside the `width` x `height` picture.
func damageOption(_ text: String, width: Int, height: Int) throws -> Damage {
    let parts = text.split(separator: ",").map { Int($0) }
    guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3], w > 0, h > 0,
        x >= 0, y >= 0, x + w <= width, y + h <= height
    else {
        throw CommandFailure(
            ExitStatus.usage,
            "--damage wants X,Y,W,H inside the \(width)x\(height) picture, such as 0,0,\(width),70, not '\(text)'")
    }
    return Damage([ClipRect(x0: x, y0: y, x1: x + w, y1: y + h)])
}

/// Three fingers dragging circles across the screen, lifted and put down again every ~4 s: a
/// ripple per finger per frame-sized step, enough to keep a pond at its 1000-ripple cap.
func draggingFingers(width: Int, height: Int, seconds: Double) -> [SwellScenes.TouchEvent] {
    var events: [SwellScenes.TouchEvent] = []
    let w = Double(width)
    let h = Double(height)
    var time = 0.0
    while time < seconds {
        for finger in 0..<3 {
            events.append(.init(.began, finger: finger, x: w * (0.2 + 0.3 * Double(finger)), y: h / 2, time: time))
        }
        for step in 1..<120 {
            time += 1.0 / 30
            for finger in 0..<3 {
                let angle: Double = Double(step) / 15 + Double(finger) * 2.1
                let x: Double = w / 2 + w * 0.35 * cos(angle)
                let y: Double = h / 2 + h * 0.35 * sin(angle)
                events.append(.init(.moved, finger: finger, x: x, y: y, time: time))
            }
        }
        time += 1.0 / 30
        for finger in 0..<3 { events.append(.init(.ended, finger: finger, x: w / 2, y: h / 2, time: time)) }
        time += 0.1
    }
    return events
}

/// The table for a scene run: render, present and total as separate rows; the budget columns
/// judge the render time (the part Swell controls; presenting waits for the display).
func reportScene(_ series: BenchSeries, budget: Double, arguments: ParsedArguments, title: String) throws {
    let header = ["part", "frames", "min", "p50", "p95", "p99", "max", "mean", "over budget", "headroom"]
    var rows: [[String]] = []
    var parts = [("render", series.times.render), ("present", series.times.present), ("total", series.times.total)]
    if series.times.copy.contains(where: { $0 > 0 }) {
        // Render plus copy: what a frame costs the CPU, without the wait for the display.
        let renderAndCopy = zip(series.times.render, series.times.copy).map { $0 + $1 }
        parts.insert(contentsOf: [("copy", series.times.copy), ("render+copy", renderAndCopy)], at: 2)
    }
    for (part, samples) in parts {
        let s = FrameStatistics(samples, budget: budget)
        let judged = part == "render"
        rows.append([
            part, "\(s.count)", formatMilliseconds(s.min), formatMilliseconds(s.p50), formatMilliseconds(s.p95),
            formatMilliseconds(s.p99), formatMilliseconds(s.max), formatMilliseconds(s.mean),
            judged ? "\(s.overBudget)" : "", judged ? (s.headroom.isFinite ? formatRatio(s.headroom) : "-") : "",
        ])
    }
    print("times in ms per frame; budget \(formatMilliseconds(budget)) ms; headroom = budget / p99 of render")
    if let startup = series.times.startup {
        print(
            "start-up frame (drawn before the timed ones: picture decodes, text layout): "
                + "\(formatMilliseconds(startup)) ms")
    }
    if series.times.waits > 0 {
        print(
            "waited between frames, untimed, in the idle rest of each frame period, for work on other threads "
                + "(next items, pictures decoded ahead): "
                + "\(formatMilliseconds(series.times.waited)) ms before \(series.times.waits) frames, at most "
                + "\(formatMilliseconds(series.times.longestWait)) ms")
    }
    print(formatTable(header, rows), terminator: "")
    print("checksum of the last frame: \(String(series.checksum ?? 0, radix: 16))")
    if let path = arguments["json"] {
        let render = FrameStatistics(series.times.render, budget: budget)
        let present = FrameStatistics(series.times.present, budget: budget)
        let total = FrameStatistics(series.times.total, budget: budget)
        let document = """
            {"scene": \(jsonString(series.name)), "width": \(series.width), "height": \(series.height), \
            "budget_ms": \(formatMilliseconds(budget)), "startup_ms": \(series.times.startup.map(formatMilliseconds) ?? "null"), "checksum": \(jsonString(String(series.checksum ?? 0, radix: 16))), \
            "render": \(render.json), "present": \(present.json), "total": \(total.json), \
            "render_ms": [\(series.times.render.map(formatMilliseconds).joined(separator: ", "))], \
            "present_ms": [\(series.times.present.map(formatMilliseconds).joined(separator: ", "))], \
            "copy_ms": [\(series.times.copy.map(formatMilliseconds).joined(separator: ", "))]}

            """
        try writeText(document, to: path)
    }
    if let path = arguments["plot"] {
        var plotted = [("render", series.times.render)]
        if series.times.present.contains(where: { $0 > 0 }) { plotted.append(("total", series.times.total)) }
        try writeText(frameTimePlot(title: title, series: plotted, budget: budget), to: path)
    }
}
