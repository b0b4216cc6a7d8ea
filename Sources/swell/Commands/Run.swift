import SwellDisplay
import SwellInput
import SwellLoop
import SwellPlayer
import SwellService

let runVerb = Verb(
    name: "run",
    summary: "run a scene fullscreen on the display, with touch input, until stopped",
    synopsis:
        "SCENE|FILE.json|--display CONNECTOR=FILE|--kiosk FILE [--check] [--output auto|drm|fbdev|memory] [--device PATH] [--connector NAME] [--mode WxH[@HZ]] "
        + "[--rotate 0|90|180|270] [--touch-matrix A,B,C,D,E,F] [--seconds S] [--threads N] [--input SCRIPT.json] "
        + "[--screen-off-after S] [--content-folder DIR] [--canvas WxH --viewport X,Y,W,H] [--clock realtime [--epoch TIME] [--period S]] "
        + "[--span A,B [--bezel PX] [--span-layout row|column | --span-at NAME=X,Y …]] [--touch DEVICE=OUTPUT …]",
    details: """
        --kiosk FILE runs a kiosk file (kiosk/1, see docs/kiosk.md and examples/kiosk.json): its
        outputs and what each shows, or one span; its touch devices, clock and night hours. The
        options below are a shorthand for the same plan. --kiosk FILE --check validates the file
        and every scene it names without opening a device, and names the card's connectors when
        one is present. The kiosk file is followed while running: a new content for an output is
        taken up at once; a change to anything else is reported and waits for a restart.
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
        Every file a scene reaches (a text element's file, a slideshow's folder, a video, a page
        action's target, a playlist's items) must lie in the scene file's folder, links followed;
        --content-folder DIR (a kiosk file's "contentFolder") widens that to DIR, which must hold
        the scene files too.
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
        --api ADDRESS:PORT --api-tokens FILE serves the management API and its page (see
        docs/kiosk.md, "Managing kiosks from a browser"): status, screenshots, showing a page
        now, screens on and off, and the content folder (the first scene's folder). HTTPS with
        --api-certificate/--api-key, or a self-signed certificate made beside FILE; plain HTTP
        on a loopback address. Nothing listens without --api.

        """ + "\n" + kioskExitStatusText,
    options: [
        .option("kiosk", "FILE", "run a kiosk file (kiosk/1): its outputs, contents, touch, clock and power"),
        .flag("check", "with --kiosk: validate the kiosk file and its scenes without opening a device"),
    ] + kioskOutputOptions.filter { $0.name != "save" } + [
        .option("threads", "N", "render threads (default: one per core)"),
        .option("input", "SCRIPT.json", "replay a touch script in real time"),
        .option("screen-off-after", "S", "power the display down after S seconds without a touch; a touch wakes it"),
        .option(
            "content-folder", "DIR",
            "the folder every file the scenes reach lies in, the scene files too (default: each scene file's folder)"),
        touchMatrixOption,
        .option(
            "display", "CONNECTOR=FILE",
            "show FILE on that DRM connector (see 'swell displays'); repeatable, one scene per output"),
        touchRoutingOption,
        .option("api", "ADDRESS:PORT", "serve the management API and page there (HTTPS; plain HTTP on loopback)"),
        .option("api-tokens", "FILE", "the API's tokens (swell token add NAME --tokens FILE)"),
        .option("api-certificate", "FILE", "the API's PEM certificate chain (default: a self-signed one)"),
        .option("api-key", "FILE", "the API certificate's PEM key"),
        .flag("api-plain-http", "plain HTTP on an address that is not loopback (TLS done in front)"),
    ] + spanOptions + wallOptions + clockOptions,
    run: runRun)

private func runRun(_ arguments: ParsedArguments) throws -> Int32 {
    guard let file = arguments["kiosk"] else {
        if arguments.has("check") {
            throw CommandFailure(ExitStatus.usage, "--check validates a kiosk file: give --kiosk FILE with it")
        }
        return try runPlan(try kioskPlan(from: arguments), seconds: try secondsOption(arguments))
    }
    let given = arguments.options.keys.filter { $0 != "kiosk" && $0 != "seconds" }.sorted()
    guard arguments.positional.isEmpty, given.isEmpty else {
        let extra = given.first.map { "--" + $0 } ?? arguments.positional[0]
        throw CommandFailure(
            ExitStatus.usage,
            "\(extra): the kiosk file \(file) says what to run; with --kiosk give only --seconds or --check")
    }
    let plan = try loadKioskPlan(file)
    if arguments.has("check") { return try checkKioskPlan(plan, file: file) }
    return try runPlan(plan, seconds: try secondsOption(arguments), kioskFile: file)
}
