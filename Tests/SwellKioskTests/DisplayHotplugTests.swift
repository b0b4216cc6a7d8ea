import CDRM
import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

/// Display hotplug: which uevents make the presenter look at the card again, and what it does
/// with what it finds (the virtual kiosk's "display hotplug" case runs it on real DRM drivers).
@Suite struct DisplayHotplugTests {
    /// A uevent as the kernel sends it: "ACTION@DEVPATH", then KEY=VALUE strings, NUL-separated.
    func isDisplayChange(_ fields: [String]) -> Bool {
        let bytes = Array(fields.joined(separator: "\0").utf8) + [0]
        return bytes.withUnsafeBytes { UeventMonitor.isDisplayChange($0) }
    }

    @Test func aChangeOnADRMDeviceCountsAndNothingElseDoes() {
        let card = "change@/devices/pci0000:00/0000:00:02.0/drm/card0"
        #expect(isDisplayChange([card, "ACTION=change", "DEVPATH=/devices/x/drm/card0", "SUBSYSTEM=drm", "HOTPLUG=1"]))
        #expect(isDisplayChange([card, "ACTION=change", "SUBSYSTEM=drm", "SYNTH_UUID=1", "SYNTH_ARG_HOTPLUG=1"]))
        #expect(!isDisplayChange(["add@/devices/x/drm/card1", "ACTION=add", "SUBSYSTEM=drm"]), "a new card")
        #expect(!isDisplayChange(["change@/devices/x/input/event3", "ACTION=change", "SUBSYSTEM=input"]))
        #expect(!isDisplayChange([card, "ACTION=change", "SUBSYSTEM=drmx"]), "whole fields only")
        #expect(!isDisplayChange([card, "ACTION=changed", "SUBSYSTEM=drm"]))
        #expect(!isDisplayChange([]))
    }

    static func mode(_ width: UInt16, _ height: UInt16, clock: UInt32 = 148_500) -> DisplayMode {
        var info = drmModeModeInfo()
        info.clock = clock
        info.hdisplay = width
        info.htotal = width + 280
        info.vdisplay = height
        info.vtotal = height + 45
        return DisplayMode(info: info)
    }

    static let fullHD = mode(1920, 1080)
    static let hdReady = mode(1280, 720, clock: 74_250)
    static let uhd = mode(3840, 2160, clock: 594_000)

    @Test func unplugKeepsRunningAndReplugSetsTheModeAgain() {
        let shown = Self.fullHD
        let monitor = [Self.fullHD, Self.hdReady]
        #expect(DisplayChange.after((true, monitor), now: (true, monitor), mode: shown) == .none)
        #expect(DisplayChange.after((true, monitor), now: (false, []), mode: shown) == .disconnected)
        #expect(DisplayChange.after((true, monitor), now: nil, mode: shown) == .disconnected, "an MST connector gone")
        #expect(DisplayChange.after((false, []), now: (false, []), mode: shown) == .none, "still unplugged")
        #expect(DisplayChange.after((false, []), now: (true, monitor), mode: shown) == .reconnected)
        // Swapped for another monitor while we looked away: it offers our mode, set it again.
        #expect(
            DisplayChange.after((true, monitor), now: (true, [Self.uhd, Self.fullHD]), mode: shown) == .reconnected)
        // Connected without modes (no EDID read yet): try ours.
        #expect(DisplayChange.after((false, []), now: (true, []), mode: shown) == .reconnected)
    }

    @Test func aMonitorWithoutTheModeIsReportedWithWhatItOffers() {
        let change = DisplayChange.after(
            (true, [Self.fullHD]), now: (true, [Self.uhd, Self.hdReady]), mode: Self.fullHD)
        #expect(change == .modeGone(offered: [Self.uhd.label, Self.hdReady.label]))
        // The same size at another pixel clock is another signal.
        let retimed = Self.mode(1920, 1080, clock: 138_500)
        #expect(!retimed.sameTiming(as: Self.fullHD) && Self.fullHD.sameTiming(as: Self.mode(1920, 1080)))
    }
}

/// Which mode a connector gets when none is asked for.
@Suite struct DefaultModeTests {
    func connector(_ modes: [DisplayMode]) -> Connector { Connector(modes: modes) }

    struct Connector {
        let modes: [DisplayMode]
        func defaultMode(shownNow: DisplayMode?) -> DisplayMode? {
            DisplayMode.defaultMode(among: modes, shownNow: shownNow)
        }
    }

    static func preferred(_ mode: DisplayMode) -> DisplayMode {
        var info = mode.info
        info.type |= UInt32(DRM_MODE_TYPE_PREFERRED)
        return DisplayMode(info: info)
    }

    @Test func withoutAPreferredModeTheModeShownNowIsKept() {
        let uhd = DisplayHotplugTests.uhd
        let xga = DisplayHotplugTests.mode(1024, 768, clock: 65_000)
        // QEMU's Virtual-2: no preferred mode, 5120x2160-like modes first, the console at 1024x768.
        let second = connector([uhd, DisplayHotplugTests.fullHD, xga])
        #expect(second.defaultMode(shownNow: xga)?.label == xga.label)
        #expect(second.defaultMode(shownNow: nil)?.label == uhd.label, "nothing shown: the first listed")
        let retimed = DisplayHotplugTests.mode(1024, 768, clock: 64_000)
        #expect(second.defaultMode(shownNow: retimed)?.label == uhd.label, "a mode it does not offer is not taken")
        // A preferred mode still wins over what is shown.
        let first = connector([uhd, Self.preferred(DisplayHotplugTests.fullHD), xga])
        #expect(first.defaultMode(shownNow: xga)?.label == DisplayHotplugTests.fullHD.label)
    }
}
