import CSysShims
import Testing

/// The fatal-signal handler's CRTC slots: one per output, each disarmed by its own presenter's
/// restore (several outputs used to share one slot, so only the last output opened was put back
/// after a crash, and the first restore disarmed it for all). Nothing is fired here: the
/// virtual kiosk's drm-restore case crashes a real process.
@Test func eachCRTCHasItsOwnCrashRestoreSlot() {
    swell_crash_restore_forget()
    defer { swell_crash_restore_forget() }
    var mode = [UInt8](repeating: 0, count: 68)
    #expect(swell_crash_restore_crtc(-1, 33, 43, 0, 0, 34, &mode, 1) == 0)
    #expect(swell_crash_restore_crtc(-1, 38, 43, 0, 0, 39, &mode, 1) == 0)
    #expect(swell_crash_restore_armed_crtcs() == 2, "both outputs' CRTCs are armed")
    #expect(swell_crash_restore_crtc(-1, 33, 44, 0, 0, 34, &mode, 1) == 0)
    #expect(swell_crash_restore_armed_crtcs() == 2, "arming a CRTC again replaces its slot")
    swell_crash_restore_crtc_forget(33)
    #expect(swell_crash_restore_armed_crtcs() == 1, "one output's restore leaves the other armed")
    swell_crash_restore_crtc_forget(38)
    #expect(swell_crash_restore_armed_crtcs() == 0)
    for crtc in 0..<UInt32(SWELL_CRASH_CRTCS) {
        #expect(swell_crash_restore_crtc(-1, 100 + crtc, 0, 0, 0, 0, nil, 0) == 0)
    }
    #expect(swell_crash_restore_crtc(-1, 200, 0, 0, 0, 0, nil, 0) == -1, "no slot left")
}
