import SwellService

/// What a DRM presenter does after a display hotplug, from its connector as it was and as it is
/// now. A hotplug means "re-read all state" (Weston, cage): the kernel says only that something
/// changed on the card.
public enum DisplayChange: Equatable, Sendable {
    /// Nothing that concerns us (another connector, or the same display).
    case none
    /// Our display went away: keep running (the CRTC stays set), so the picture is back as soon
    /// as a display is plugged in again; exiting would leave a kiosk dark until someone came.
    case disconnected
    /// A display is connected again (the same one, or another that offers our mode): set the
    /// CRTC again, as monitors that were unplugged often stay dark until the next modeset.
    case reconnected
    /// The display now connected does not offer our mode (a different monitor): the names of the
    /// modes it offers.
    case modeGone(offered: [String])

    /// The change from `old` to `now` (each: connected, and the modes offered; `now` nil: the
    /// connector is gone, as a DisplayPort MST one may be) for a presenter showing `mode`.
    public static func after(
        _ old: (connected: Bool, modes: [DisplayMode]), now: (connected: Bool, modes: [DisplayMode])?,
        mode: DisplayMode
    ) -> DisplayChange {
        guard let now, now.connected else { return old.connected ? .disconnected : .none }
        // Some connected outputs list no modes (no EDID yet): try ours.
        if !now.modes.isEmpty && !now.modes.contains(where: { $0.sameTiming(as: mode) }) {
            return .modeGone(offered: now.modes.map(\.label))
        }
        let sameModes =
            old.modes.count == now.modes.count && zip(old.modes, now.modes).allSatisfy { $0.sameTiming(as: $1) }
        return old.connected && sameModes ? .none : .reconnected
    }
}

extension DisplayMode {
    /// Whether both modes have the same timings (size, totals, sync positions, pixel clock and
    /// flags): the same signal, whatever each is called.
    public func sameTiming(as other: DisplayMode) -> Bool {
        let a = info
        let b = other.info
        return a.clock == b.clock && a.hdisplay == b.hdisplay && a.hsync_start == b.hsync_start
            && a.hsync_end == b.hsync_end && a.htotal == b.htotal && a.vdisplay == b.vdisplay
            && a.vsync_start == b.vsync_start && a.vsync_end == b.vsync_end && a.vtotal == b.vtotal
            && a.flags == b.flags
    }
}
