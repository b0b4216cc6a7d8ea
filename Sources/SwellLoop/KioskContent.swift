import SwellDisplay
import SwellInput
import SwellRaster
import SwellService

/// What a kiosk loop shows: the interface between `KioskLoop` and a scene, a picture or a test
/// pattern (after kmscon's `display_ops` and Plymouth's renderer plug-ins). The loop owns the one
/// clock: every call gets the time (seconds since the loop started) the loop read once for that
/// round, so a touch is never later than the frame it affects and no content reads a clock of
/// its own.
public protocol KioskContent: AnyObject {
    /// Draws the frame for `time` into `surface` (the presenter's shadow, holding the last frame
    /// drawn) and returns the pixels that can differ from that frame; the presenter copies only
    /// those. Empty damage: nothing changed, nothing is presented.
    func render(at time: Double, into surface: PixelSurface) -> Damage
    /// A touch, arrived by `time`, before the frame it affects is rendered.
    func handle(_ touch: TouchEvent, at time: Double)
    /// Whether the picture at `time` is the same as the last one shown, so no frame is needed.
    func isIdle(at time: Double) -> Bool
    /// While idle: the time at which the picture moves by itself next (nil: only input moves it).
    func nextWake(after time: Double) -> Double?
    /// The followed file (`KioskLoop.run`'s `watch`) has new content, seen at `time`.
    func fileChanged(at time: Double)
    /// These of the watch's followed files have new content (or are gone), seen at `time`; for
    /// content that follows several (a page's text files). By default, `fileChanged(at:)`.
    func filesChanged(_ paths: [String], at time: Double)
    /// The first frame is on the display.
    func shown()
}

extension KioskContent {
    public func handle(_ touch: TouchEvent, at time: Double) {}
    public func isIdle(at time: Double) -> Bool { false }
    public func nextWake(after time: Double) -> Double? { nil }
    public func fileChanged(at time: Double) {}
    public func filesChanged(_ paths: [String], at time: Double) { fileChanged(at: time) }
    public func shown() {}
}
