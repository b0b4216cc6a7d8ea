import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The output options `show` and `touch-test` share.
let kioskOutputOptions: [OptionSpec] = [
    .option("output", "KIND", "auto (DRM, else fbdev), drm, fbdev or memory (no display)"),
    .option("device", "PATH", "a DRM card (/dev/dri/card1) or framebuffer (/dev/fb1); default: the first usable"),
    .option("connector", "NAME", "a DRM connector such as HDMI-A-1 or Virtual-1; default: the first connected"),
    .option("mode", "WxH[@HZ]", "a DRM mode the connector offers; default: its preferred mode"),
    .option("rotate", "DEGREES", "turn the picture 0, 90, 180 or 270 degrees clockwise (portrait panels)"),
    .option("seconds", "S", "stop after S seconds (default: run until SIGTERM/SIGINT/SIGHUP)"),
    .option("size", "WxH", "the panel size for --output memory (default 1920x1080)"),
    .option("save", "FILE", "with --output memory: write the scanned-out picture (.raw or .png) and stop"),
]

/// `--touch-matrix`, for the verbs that read touches.
let touchMatrixOption = OptionSpec.option(
    "touch-matrix", "A,B,C,D,E,F",
    "correct a touch controller: panel x = A·x + B·y + C, y = D·x + E·y + F in 0...1 device and panel "
        + "coordinates before --rotate (libinput's LIBINPUT_CALIBRATION_MATRIX); 'swell touch-test --calibrate' "
        + "measures it")

/// `--touch-matrix` as a calibration (identity without it).
func touchCalibration(_ arguments: ParsedArguments) throws -> TouchCalibration {
    guard let text = arguments["touch-matrix"] else { return .identity }
    return try touchMatrix(text)
}

let kioskExitStatusText = """
    Exit status: 0 stopped by a signal or --seconds, 64 usage error, 65/66 bad or unreadable input,
    69 no display device, or no display connected (within --seconds), 75 the display is held by
    another DRM master, 77 permission denied (join the video and input groups, or run as root),
    78 connector or mode not offered, 74 a device failed while running.
    """

/// Reads the shared output options; `-o` is `--output` here (the argument parser maps it).
func outputOptions(_ arguments: ParsedArguments) throws -> OutputOptions {
    var options = OutputOptions()
    if let text = arguments["output"] { options.choice = try outputChoice(text) }
    // `CONNECTOR=VALUE` values are one output's, for several outputs (`outputRequests`).
    if let text = plainValue(arguments, "rotate") { options.rotation = try rotation(text) }
    if let text = plainValue(arguments, "mode") { options.mode = try modeRequest(text) }
    let perOutput = ["rotate", "mode"].first { option in arguments.values(option).contains { $0.contains("=") } }
    if let perOutput, arguments.values("display").isEmpty, arguments["span"] == nil {
        throw CommandFailure(
            ExitStatus.usage,
            "--\(perOutput) CONNECTOR=VALUE sets one of several outputs: it goes with --display or --span; "
                + "for one output give the value alone")
    }
    options.device = arguments["device"]
    options.connector = arguments["connector"]
    if let size = try arguments.size("size") { options.memorySize = size }
    if arguments["save"] != nil && options.choice != .memory {
        throw CommandFailure(ExitStatus.usage, "--save needs --output memory (a real display cannot be read back)")
    }
    return options
}

/// The last value of `option` that names no connector (`--rotate 90`, not `--rotate HDMI-A-2=90`).
private func plainValue(_ arguments: ParsedArguments, _ option: String) -> String? {
    arguments.values(option).last { !$0.contains("=") }
}

/// The `--display CONNECTOR=FILE` values, checked against the DRM card's connectors (an unknown
/// one lists them, exit 69; a malformed value or two scenes for one output, exit 64). None: [].
func displayAssignments(_ arguments: ParsedArguments, options: OutputOptions) throws -> [DisplayAssignment] {
    let texts = arguments.values("display")
    guard !texts.isEmpty else { return [] }
    guard arguments.positional.isEmpty else {
        throw CommandFailure(
            ExitStatus.usage, "with --display each output names its scene file; give no SCENE as well")
    }
    guard options.connector == nil, options.choice == .auto || options.choice == .drm else {
        throw CommandFailure(
            ExitStatus.usage, "--display picks DRM connectors: it goes without --connector and --output fbdev/memory")
    }
    let assignments = try DisplayAssignment.parseAll(texts)
    // Per-output --mode/--rotate must name outputs of this run: checked before the card is opened.
    _ = try outputRequests(assignments.map(\.connectorName), arguments, options: options)
    let card: DRMCard
    do {
        card = try DRMCard.open(options.device)
    } catch {
        throw commandFailure(error)
    }
    try DisplayAssignment.check(
        assignments, cardPath: card.path, connectors: card.connectors.map { ($0.name, $0.status) })
    return assignments
}

/// --seconds as a positive number, or nil.
func secondsOption(_ arguments: ParsedArguments) throws -> Double? {
    guard let text = arguments["seconds"] else { return nil }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
        throw CommandFailure(ExitStatus.usage, "--seconds wants a number of seconds ≥ 0, not '\(text)'")
    }
    return seconds
}

/// Option `name` as a number of seconds > 0, or nil when it is not given.
func positiveSecondsOption(_ arguments: ParsedArguments, _ name: String) throws -> Double? {
    guard let text = arguments[name] else { return nil }
    guard let value = Double(text), value.isFinite, value > 0 else {
        throw CommandFailure(ExitStatus.usage, "--\(name) wants a number of seconds > 0, not '\(text)'")
    }
    return value
}

/// Maps a kiosk failure onto the exit statuses in Support/ExitStatus.swift.
func commandFailure(_ error: KioskError) -> CommandFailure {
    let status: Int32
    switch error.kind {
    case .noDevice, .noConnector, .displayDisconnected: status = ExitStatus.unavailable
    case .permissionDenied: status = ExitStatus.noPermission
    case .busy: status = ExitStatus.tryAgain
    case .modeNotOffered: status = ExitStatus.configuration
    case .usage: status = ExitStatus.usage
    case .io: status = ExitStatus.ioError
    }
    return CommandFailure(status, error.message)
}

/// Opens the presenter and, for real displays, takes the VT console into graphics mode.
func openKioskOutput(_ options: OutputOptions) throws -> (any Presenter, VTConsole?) {
    do {
        let presenter = try openPresenter(options)
        let console = options.choice == .memory ? nil : VTConsole.takeOver()
        return (presenter, console)
    } catch {
        throw commandFailure(error)
    }
}

/// Opens the display (and the console), the touch and pointer devices with `calibration` when
/// `withInput` (never for `--output memory`), and the frame loop; on failure puts back whatever
/// was taken. New and vanished input devices are reported with a line each. (`swell run` routes
/// its devices through its plan instead: `openPlanOutputs`.)
func openKioskLoop(
    _ options: OutputOptions, withInput: Bool, calibration: TouchCalibration = .identity
) throws -> (loop: KioskLoop, presenter: any Presenter) {
    let (presenter, console) = try openKioskOutput(options)
    var input: InputMonitor?
    if withInput && options.choice != .memory {
        input = InputMonitor(
            mapping: ScreenMapping(
                panelWidth: presenter.display.panelWidth, panelHeight: presenter.display.panelHeight,
                rotation: presenter.rotation, calibration: calibration))
        input?.deviceAdded = { path, name in printNow("input added \(path) (\(name))") }
        input?.deviceRemoved = { path, reason in printNow("input removed \(path) (\(reason))") }
    }
    do {
        return (try KioskLoop(presenter: presenter, input: input, console: console), presenter)
    } catch {
        console?.restore()
        presenter.restore()
        throw commandFailure(error)
    }
}

/// The line a kiosk command prints once its picture is on screen ("running ripples on card0 …"),
/// also sent to systemd as READY=1 with that status when a `Type=notify` unit runs Swell.
func announceOnScreen(_ status: String) {
    printNow("swell: " + status)
    ServiceNotifier.current?.ready(status: status)
}

/// A watch on the files `swell run` or `show` holds (the first is the one given on the command
/// line), or nil with a warning when their folders cannot be watched (no inotify, or the user's
/// inotify instances used up): they are then read only once.
func followed(_ paths: [String]) -> FileWatch? {
    let watch = FileWatch(paths: Array(paths.prefix(1)))
    if let watch, watch.follow(paths) { return watch }
    let what = watch == nil ? paths[0] : "every file of \(paths[0])"
    kioskWarn("not following \(what) for changes (inotify: \(Errno.current.message)); restart to take up a new version")
    return watch
}

/// Prints one line to standard output and flushes it at once (scripts and test harnesses wait for it).
func printNow(_ line: String) {
    print(line)
    fflush(nil)  // all streams; `stdout` itself is not concurrency-safe to name in Swift 6
}

/// `--save FILE` of `show` and `touch-test`: with it the output is the memory presenter, the
/// loop stops after the first frame, and the scanned-out picture is written when the command ends.
struct ScanoutSave {
    let path: String
    let kind: ImageFileKind

    /// Reads `--save` (nil without it) and switches `options` to the memory presenter.
    init?(_ arguments: ParsedArguments, options: inout OutputOptions) throws {
        guard let path = arguments["save"] else { return nil }
        self.path = path
        kind = try ImageFileKind(path: path)
        options.choice = .memory
    }

    /// Writes what `presenter` scanned out (it is the memory presenter `init` chose).
    func write(from presenter: any Presenter) throws {
        guard let memory = presenter as? MemoryPresenter else { return }
        let panel = PixelSurface(
            base: memory.scanout, width: memory.display.panelWidth, height: memory.display.panelHeight,
            stride: memory.pitch, owner: memory)
        try writeImage(panel, to: path, as: kind)
    }
}

/// A video wall's options: the canvas and the tile this box shows (`run`, `dump`, `bench`).
let wallOptions: [OptionSpec] = [
    .option("canvas", "WxH", "a video wall's whole canvas: the scene is laid out at this size (with --viewport)"),
    .option("viewport", "X,Y,W,H", "the rectangle of --canvas this box shows: W x H is its display's size"),
]

/// `--clock` and its epoch and period, for the verbs that run in real time (`run`).
let clockOptions: [OptionSpec] = [
    .option(
        "clock", "monotonic|realtime",
        "scene time from the start (monotonic, default) or from CLOCK_REALTIME since --epoch, for walls of boxes"),
    .option("epoch", "TIME", "with --clock realtime: scene time 0, Unix seconds or 2026-01-01T00:00:00Z (default 0)"),
    .option("period", "S", "with --clock realtime: scene time starts again from 0 every S seconds after --epoch"),
]

/// `--canvas` with `--viewport` as a viewport (nil with neither); either alone, a malformed one
/// or one outside its canvas is a usage error.
func viewportOption(_ arguments: ParsedArguments) throws -> Viewport? {
    let canvas = try arguments.size("canvas")
    guard let text = arguments["viewport"] else {
        guard canvas == nil else {
            throw CommandFailure(ExitStatus.usage, "--canvas needs --viewport X,Y,W,H: the rectangle this box shows")
        }
        return nil
    }
    guard let canvas else {
        throw CommandFailure(ExitStatus.usage, "--viewport \(text) needs --canvas WxH: the whole wall's size")
    }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
        x >= 0, y >= 0, width >= 1, height >= 1
    else {
        throw CommandFailure(
            ExitStatus.usage, "--viewport wants X,Y,W,H in whole pixels (X, Y ≥ 0; W, H ≥ 1), not '\(text)'")
    }
    guard
        let viewport = Viewport(
            canvasWidth: canvas.width, canvasHeight: canvas.height,
            rect: ClipRect(x0: x, y0: y, x1: x + width, y1: y + height))
    else {
        throw CommandFailure(
            ExitStatus.usage,
            "--viewport \(text) lies outside the \(canvas.width)x\(canvas.height) canvas "
                + "(X + W must be ≤ \(canvas.width), Y + H ≤ \(canvas.height))")
    }
    return viewport
}

/// Refuses a viewport whose size is not the `width` x `height` picture of `what`.
func checkViewport(_ viewport: Viewport?, width: Int, height: Int, of what: String) throws {
    guard let viewport, viewport.width != width || viewport.height != height else { return }
    throw CommandFailure(
        ExitStatus.usage,
        "--viewport is \(viewport.width)x\(viewport.height) but \(what) is \(width)x\(height): they must be the same size"
    )
}

/// `--clock realtime` (with `--epoch`, `--period`) as a scene clock; nil for the default
/// monotonic clock. `--epoch` or `--period` without `--clock realtime` is a usage error.
func realtimeClockOption(_ arguments: ParsedArguments) throws -> RealtimeSceneClock? {
    let kind = arguments["clock"] ?? "monotonic"
    guard kind == "realtime" else {
        guard kind == "monotonic" else {
            throw CommandFailure(ExitStatus.usage, "--clock wants monotonic or realtime, not '\(kind)'")
        }
        if arguments["epoch"] != nil || arguments["period"] != nil {
            throw CommandFailure(ExitStatus.usage, "--epoch and --period need --clock realtime")
        }
        return nil
    }
    var epoch = 0.0
    if let text = arguments["epoch"] {
        guard let value = RealtimeSceneClock.epoch(parsing: text) else {
            throw CommandFailure(
                ExitStatus.usage, "--epoch wants Unix seconds or a UTC time such as 2026-01-01T00:00:00Z, not '\(text)'"
            )
        }
        epoch = value
    }
    let period = try positiveSecondsOption(arguments, "period")
    return RealtimeSceneClock(epoch: epoch, period: period)
}
