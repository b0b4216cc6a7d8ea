import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService

let touchTestVerb = Verb(
    name: "touch-test",
    summary: "check touch input: a white screen that draws a ring where each touch begins",
    synopsis:
        "[--output auto|drm|fbdev|memory] [--device PATH] [--connector NAME] [--mode WxH[@HZ]] [--rotate DEG] "
        + "[--touch-matrix A,B,C,D,E,F | --calibrate] [--seconds S]",
    details: """
        A diagnostic for a kiosk's touch screen or pointer. Shows a white screen; every touch (or
        click of an absolute or relative pointer) draws a blue ring centred where it began, with a
        red 1-pixel crosshair through the pixel it began in, and each touch prints a line such as
        'touch began id=0 x=480.0 y=270.0' in picture pixels (rotation applied). Input devices are found in /dev/input by their capabilities (multitouch, single
        touch, tablets, mice) and may be plugged in or out while it runs. It prints
        'swell: touch-test on DISPLAY; input: DEVICES' once the screen is up.
        With --output memory --save FILE --tap X,Y the picture after a tap at (X, Y) is written to
        FILE (the reference the QEMU test compares a screenshot with).
        --calibrate measures a touch controller that disagrees with its panel (swapped or mirrored
        axes, a sensor larger than the picture): it shows four crosses in turn, one per tap, then
        prints the matrix that puts each tap on its cross — 'swell: touch matrix --touch-matrix
        A,B,C,D,E,F' for 'swell run' (and the same numbers as libinput's
        LIBINPUT_CALIBRATION_MATRIX) — and carries on as the touch test with it applied, so the next
        rings should land under the finger.

        """ + "\n" + kioskExitStatusText,
    options: kioskOutputOptions + [
        .option("tap", "X,Y", "with --output memory: pretend a touch began at picture pixel (X, Y)"),
        touchMatrixOption,
        .flag("calibrate", "tap four crosses to measure the touch matrix, then test with it"),
    ],
    run: runTouchTest)

/// The ring a touch draws: radius and width in pixels, and its colour.
let touchRingRadius = 40.0
let touchRingWidth = 6.0
let touchRingColor = Color(r: 0.1, g: 0.3, b: 0.85)
/// Half the length of the crosshair arms drawn through the pixel a touch began in.
let crosshairArm = 10

/// A 1-pixel crosshair through the pixel containing (x, y): pixel-exact, so a screenshot shows
/// exactly where the touch landed, whatever the antialiased ring looks like.
func drawCrosshair(_ surface: PixelSurface, x: Double, y: Double, arm: Int = crosshairArm) {
    let px = Int(x.rounded(.down))
    let py = Int(y.rounded(.down))
    clear(
        surface, color: crosshairInk,
        clip: ClipRect(x0: px - arm, y0: py, x1: px + arm + 1, y1: py + 1).intersection(surface.bounds))
    clear(
        surface, color: crosshairInk,
        clip: ClipRect(x0: px, y0: py - arm, x1: px + 1, y1: py + arm + 1).intersection(surface.bounds))
}

let crosshairInk = Color(r: 0.8, g: 0.1, b: 0.1)

private func runTouchTest(_ arguments: ParsedArguments) throws -> Int32 {
    guard arguments.positional.isEmpty else {
        throw CommandFailure(ExitStatus.usage, "touch-test takes no file arguments")
    }
    var options = try outputOptions(arguments)
    let seconds = try secondsOption(arguments)
    // A screen switched on after the kiosk booted: wait for it (at most --seconds).
    options.waitForDisplay = seconds ?? .infinity
    let save = try ScanoutSave(arguments, options: &options)
    var rings: [Ring] = []
    if let tap = arguments["tap"] {
        let parts = tap.split(separator: ",").map { Double($0) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
            throw CommandFailure(ExitStatus.usage, "--tap wants X,Y in picture pixels, such as 480,270, not '\(tap)'")
        }
        guard options.choice == .memory else { throw CommandFailure(ExitStatus.usage, "--tap needs --output memory") }
        rings.append(Ring(centerX: x, centerY: y, radius: touchRingRadius, width: touchRingWidth))
    }

    let calibration = try touchCalibration(arguments)
    let calibrating = arguments.has("calibrate")
    if calibrating && arguments["touch-matrix"] != nil {
        throw CommandFailure(
            ExitStatus.usage, "--calibrate measures the touch screen as it reports; leave --touch-matrix out")
    }

    // Devices present at the start are listed in the "touch-test on" line; later ones get a line each.
    let (loop, presenter) = try openKioskLoop(options, withInput: true, calibration: calibration)
    let input = loop.input
    let size = presenter.shadow.surface
    let content = TouchTestContent(
        rings: rings, input: input,
        session: calibrating ? CalibrationSession(pictureWidth: size.width, pictureHeight: size.height) : nil,
        presenter: presenter)
    let end: LoopEnd
    do {
        end = try loop.run(content, seconds: save != nil ? 0 : seconds)
    } catch {
        throw commandFailure(error)
    }
    try save?.write(from: presenter)
    if case .signal = end { printError("swell touch-test: stopped by \(StopSignals.name); display restored") }
    return ExitStatus.success
}

/// The touch test's picture: a ring and crosshair where each touch began (or the next cross to
/// tap while calibrating), redrawn only when a touch arrives.
private final class TouchTestContent: KioskContent {
    private var rings: [Ring]
    private let input: InputMonitor?
    private var session: CalibrationSession?
    private let presenter: any Presenter

    init(rings: [Ring], input: InputMonitor?, session: CalibrationSession?, presenter: any Presenter) {
        self.rings = rings
        self.input = input
        self.session = session
        self.presenter = presenter
    }

    func render(at time: Double, into surface: PixelSurface) -> Damage {
        clear(surface, color: .white, clip: surface.bounds)
        if let target = session?.nextTarget {
            drawCalibrationCross(surface, x: target.x, y: target.y)
        } else {
            for ring in rings {
                draw(DrawCommand(.ring(ring), color: touchRingColor), on: surface, within: surface.bounds)
                drawCrosshair(surface, x: ring.centerX, y: ring.centerY)
            }
        }
        return .whole(width: surface.width, height: surface.height)
    }

    func handle(_ event: SwellInput.TouchEvent, at time: Double) {
        printNow(event.description)
        if event.phase == .began, session?.nextTarget != nil, let input {
            calibrationTap(event, &session, input: input)
            return
        }
        if event.phase == .began {
            rings.append(Ring(centerX: event.x, centerY: event.y, radius: touchRingRadius, width: touchRingWidth))
            // Keep the picture readable (and the frame time bounded) after many taps.
            if rings.count > 64 { rings.removeFirst() }
        }
    }

    func isIdle(at time: Double) -> Bool { true }

    func shown() {
        let devices = input?.deviceSummary ?? []
        announceOnScreen(
            "touch-test on \(presenter.display.description); input: "
                + (devices.isEmpty ? "none yet (plug a touch screen or mouse in)" : devices.joined(separator: ", ")))
        if let session { printNow("swell: " + session.prompt) }
    }
}

/// A tap during `--calibrate`: recorded against its cross; after the last one the matrix is
/// printed and applied to the input from then on.
private func calibrationTap(
    _ event: SwellInput.TouchEvent, _ session: inout CalibrationSession?, input: InputMonitor
) {
    guard var current = session else { return }
    let mapping = input.mapping
    switch current.record(x: event.x, y: event.y, mapping: mapping) {
    case .next:
        printNow("swell: " + current.prompt)
    case .degenerate:
        printNow("swell: calibrate: the taps lie on one line; tap the crosses again")
        printNow("swell: " + current.prompt)
    case .calibrated(let fit, let largestMiss):
        printNow(
            "swell: touch matrix --touch-matrix \(fit) (libinput: LIBINPUT_CALIBRATION_MATRIX=\"\(fit.libinputProperty)\"); "
                + "largest miss \(formatTenths(largestMiss)) px")
        let shorter = Double(min(mapping.panelWidth, mapping.panelHeight))
        if largestMiss > shorter / 32 {
            printNow(
                "swell: calibrate: a tap landed far from where the others put its cross; "
                    + "if the rings below miss the finger, run --calibrate again")
        }
        printNow("swell: taps now use it: each ring should be under the finger")
        input.mapping.calibration = fit
    }
    session = current
}

/// The cross `--calibrate` asks to be tapped: a ring and a crosshair, larger than a touch's marks.
func drawCalibrationCross(_ surface: PixelSurface, x: Double, y: Double) {
    let ring = Ring(centerX: x, centerY: y, radius: 24, width: 3)
    draw(DrawCommand(.ring(ring), color: crosshairInk), on: surface, within: surface.bounds)
    drawCrosshair(surface, x: x, y: y, arm: 40)
}
