import SwellDisplay
import SwellInput
import SwellLoop
import SwellService

let displaysVerb = Verb(
    name: "displays",
    summary: "list DRM cards, connectors, modes, framebuffers and touch/pointer devices",
    synopsis: "",
    details: """
        Like a small modetest: for each /dev/dri/card* its driver, each connector's status, the CRTC
        and framebuffer it shows now (fb=0: off) and the modes it offers (the preferred one first,
        marked *); then the /dev/fb* framebuffers and the input devices Swell would read.
        Needs read access to the devices (the video and input groups, or root).
        """,
    options: [],
    run: { arguments in
        guard arguments.positional.isEmpty else {
            throw CommandFailure(ExitStatus.usage, "displays takes no arguments")
        }
        let report = describeDisplays()
        print(report.text, terminator: "")
        return report.foundAny ? ExitStatus.success : ExitStatus.unavailable
    })
