import SwellDisplay
import SwellDrawList
import SwellInput
import SwellLoop
import SwellOutput
import SwellRaster
import SwellService

let showVerb = Verb(
    name: "show",
    summary: "show a draw list, PNG or JPEG fullscreen on the display until stopped",
    synopsis:
        "FILE.json|FILE.png|FILE.jpg [--scale none|fit|fill] [--output auto|drm|fbdev|memory] [--device PATH] [--connector NAME] [--mode WxH[@HZ]] "
        + "[--rotate 0|90|180|270] [--seconds S]",
    details: """
        Puts one picture on the display through DRM/KMS (or fbdev) and holds it until SIGTERM,
        SIGINT or SIGHUP (or --seconds), then restores what the display showed before. Once the
        picture is on screen it prints one line: 'swell: showing waves.json on card0 Virtual-1
        1920x1080@60 (drm)'. A picture whose size differs from the display's is rendered at its own
        size and centred: cropped where it is larger, with black borders where it is smaller.
        With --output memory --save FILE the picture goes through the same rotation and scan-out
        copy into memory and is written to FILE (what the screen would show), for comparisons.
        --scale fit shows a photo or poster whole on the screen (black bars), --scale fill covers the
        screen with it (cropping the overflow); the default, none, keeps its own pixels.
        The file is followed while shown: a picture written over it or renamed over it (cp, rsync)
        goes on screen at once; one that does not decode yet (half copied) is reported and the
        previous picture stays.

        """ + "\n" + kioskExitStatusText,
    options: kioskOutputOptions + [
        .option(
            "scale", "HOW", "none (the picture's own pixels, centred), fit (whole, black bars) or fill (cover, crop)"),
        .flag(
            "redraw", "present the picture again every refresh, as an animation would; prints the frame rate at the end"
        ),
    ],
    run: runShow)

private func runShow(_ arguments: ParsedArguments) throws -> Int32 {
    guard arguments.positional.count == 1 else {
        throw CommandFailure(ExitStatus.usage, "expected one file to show (a draw list .json, a .png or a .jpg)")
    }
    let path = arguments.positional[0]
    var options = try outputOptions(arguments)
    let seconds = try secondsOption(arguments)
    // A screen switched on after the kiosk booted: wait for it (at most --seconds).
    options.waitForDisplay = seconds ?? .infinity
    let save = try ScanoutSave(arguments, options: &options)

    let scaling = try PictureScaling(arguments["scale"] ?? "none")
    // A photo or poster to scale is only checked now (its header: a bad file fails before the
    // display is taken) and decoded once the display's size is known, so a huge one can be read
    // reduced (readPicture(covering:)) instead of whole.
    let decodeLater = scaling != .none && PictureFormat(fileName: path) != nil
    let early = decodeLater ? nil : try loadPicture(path)
    if decodeLater { try checkPicture(path) }
    let (loop, presenter) = try openKioskLoop(options, withInput: false)
    let covering = (width: presenter.shadow.width, height: presenter.shadow.height)
    let picture: PixelBuffer
    do {
        picture = try early ?? loadPicture(path, covering: covering)
    } catch {
        loop.restore()
        throw error
    }
    let name = String(path.split(separator: "/").last ?? Substring(path))
    let content = PictureContent(
        picture: picture, scaling: scaling, redraw: arguments.has("redraw"),
        reload: { try loadPicture(path, covering: decodeLater ? covering : nil) }, path: path,
        announcement: { "showing \(name) on \(presenter.display.description)" })
    let end: LoopEnd
    do {
        // The file is followed while shown: a menu or poster replaced (rsync, cp) goes up at once.
        end = try loop.run(content, seconds: save != nil ? 0 : seconds, watch: save == nil ? followed([path]) : nil)
    } catch {
        throw commandFailure(error)
    }
    if content.redraw && content.frames > 1 {
        let rate = Double(content.frames - 1) / max(content.lastFrameTime - content.firstFrameTime, 1e-9)
        printNow(
            "swell: \(content.frames) frames, \(Int(rate.rounded())) frames/s; \(presenter.pacing)")
    }
    try save?.write(from: presenter)
    if case .signal = end { printError("swell show: stopped by \(StopSignals.name); display restored") }
    return ExitStatus.success
}

/// One picture as the kiosk loop's content: drawn when the loop needs a frame (the first, a
/// changed file, a display back), idle otherwise; with `redraw`, every refresh.
final class PictureContent: KioskContent {
    private var picture: PixelBuffer
    private let scaling: PictureScaling
    let redraw: Bool
    private let reload: () throws -> PixelBuffer
    private let path: String
    private let announcement: () -> String
    /// What goes on screen: the picture itself, or (--scale) scaled at the display's size, made
    /// at the first frame and again only if the size changes.
    private var placed: PixelBuffer?
    private(set) var frames = 0
    private(set) var firstFrameTime = 0.0
    private(set) var lastFrameTime = 0.0

    init(
        picture: PixelBuffer, scaling: PictureScaling, redraw: Bool, reload: @escaping () throws -> PixelBuffer,
        path: String, announcement: @escaping () -> String
    ) {
        self.picture = picture
        self.scaling = scaling
        self.redraw = redraw
        self.reload = reload
        self.path = path
        self.announcement = announcement
    }

    func render(at time: Double, into surface: PixelSurface) -> Damage {
        let onScreen = placed ?? scaling.picture(picture, width: surface.width, height: surface.height)
        placed = onScreen
        placeCentred(onScreen.surface, on: surface)
        if frames == 0 { firstFrameTime = time }
        lastFrameTime = time
        frames += 1
        // Drawn only when a frame is needed (or, with --redraw, to measure presenting): whole.
        return .whole(width: surface.width, height: surface.height)
    }

    func isIdle(at time: Double) -> Bool { !redraw }

    func fileChanged(at time: Double) {
        do {
            picture = try reload()
            placed = nil
            kioskWarn("\(path) changed: showing the new picture")
        } catch {
            kioskWarn(
                "\(path) changed but cannot be shown (the previous picture stays): " + CommandFailure.message(of: error)
            )
        }
    }

    func shown() { announceOnScreen(announcement()) }
}

/// How `swell show` sizes the picture to the display.
enum PictureScaling {
    case none, fit, fill

    init(_ word: String) throws {
        switch word {
        case "none": self = .none
        case "fit": self = .fit
        case "fill": self = .fill
        default: throw CommandFailure(ExitStatus.usage, "--scale must be none, fit or fill, not '\(word)'")
        }
    }

    /// `picture` as shown on a width x height display: itself (none), or scaled to that size.
    func picture(_ picture: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        guard self != .none else { return picture }
        let scaled = PixelBuffer(width: width, height: height)
        if self == .fit {
            scaleImageToFit(picture.surface, into: scaled.surface, background: 0xFF00_0000)
        } else {
            scaleImageToFill(picture.surface, into: scaled.surface)
        }
        return scaled
    }
}

/// A draw list rendered at its own size, or a PNG or JPEG (turned upright; with `covering`, maybe
/// reduced as far as it still covers that size).
private func loadPicture(_ path: String, covering: (width: Int, height: Int)? = nil) throws -> PixelBuffer {
    if PictureFormat(fileName: path) != nil {
        do {
            return try readPicture(path: path, covering: covering)
        } catch {
            throw pictureFailure(error)
        }
    }
    let frame = try loadFrame(path)
    let buffer = PixelBuffer(width: frame.width, height: frame.height)
    render(frame, into: buffer.surface)
    return buffer
}

/// Checks that `path` is a PNG or JPEG Swell can show, reading only its header.
private func checkPicture(_ path: String) throws {
    do {
        _ = try readPictureSize(path: path)
    } catch {
        throw pictureFailure(error)
    }
}

/// A picture that cannot be read: 66 when the file is missing or unreadable, else 65.
private func pictureFailure(_ error: OutputError) -> CommandFailure {
    CommandFailure(error.isMissingInput ? ExitStatus.noInput : ExitStatus.dataError, error.description)
}

/// Copies `picture` centred onto `surface`: cropped where larger, black borders where smaller.
/// The offsets round down, so an odd difference puts the extra pixel right and below.
func placeCentred(_ picture: PixelSurface, on surface: PixelSurface) {
    let offsetX = (surface.width - picture.width) / 2
    let offsetY = (surface.height - picture.height) / 2
    for y in 0..<surface.height {
        let row = surface.row(y)
        let sourceY = y - offsetY
        guard sourceY >= 0 && sourceY < picture.height else {
            row.update(repeating: 0, count: surface.width)
            continue
        }
        let source = picture.row(sourceY)
        let firstX = max(0, offsetX)
        let lastX = min(surface.width, offsetX + picture.width)
        if firstX > 0 { row.update(repeating: 0, count: firstX) }
        if lastX > firstX { (row + firstX).update(from: source + (firstX - offsetX), count: lastX - firstX) }
        if lastX < surface.width { (row + max(lastX, 0)).update(repeating: 0, count: surface.width - max(lastX, 0)) }
    }
}
