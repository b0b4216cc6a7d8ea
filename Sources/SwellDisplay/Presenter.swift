import SwellRaster
import SwellService
import SwellSystem

/// How the picture is turned on the panel, clockwise, for panels mounted in portrait or upside down.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// Whether width and height trade places between the panel and the picture.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The picture's size for a panel of `width` x `height`.
    public func logicalSize(panelWidth width: Int, panelHeight height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Maps a point on the panel (continuous pixel coordinates) to the picture's coordinates.
    /// `logicalWidth`/`logicalHeight` are the picture's size.
    public func pictureCoordinates(panelX x: Double, panelY y: Double, logicalWidth: Int, logicalHeight: Int)
        -> (x: Double, y: Double)
    {
        switch self {
        case .none: (x, y)
        case .clockwise90: (y, Double(logicalHeight) - x)
        case .upsideDown: (Double(logicalWidth) - x, Double(logicalHeight) - y)
        case .clockwise270: (Double(logicalWidth) - y, x)
        }
    }

    /// The panel pixels that show the picture pixels in `rect` (picture of `logicalWidth` x
    /// `logicalHeight`): where a damaged rectangle is copied to, and what DirtyFB is told.
    public func panelRect(ofPicture rect: ClipRect, logicalWidth: Int, logicalHeight: Int) -> ClipRect {
        guard !rect.isEmpty else { return ClipRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        let w = logicalWidth
        let h = logicalHeight
        switch self {
        case .none: return rect
        // panel (nx, ny) shows picture (ny, H-1-nx)
        case .clockwise90: return ClipRect(x0: h - rect.y1, y0: rect.x0, x1: h - rect.y0, y1: rect.x1)
        case .upsideDown: return ClipRect(x0: w - rect.x1, y0: h - rect.y1, x1: w - rect.x0, y1: h - rect.y0)
        // panel (nx, ny) shows picture (W-1-ny, nx)
        case .clockwise270: return ClipRect(x0: rect.y0, y0: w - rect.x1, x1: rect.y1, y1: w - rect.x0)
        }
    }
}

/// What a presenter drives, for messages: `card0 Virtual-1 1920x1080@60 (drm)`.
public struct DisplayInfo: Sendable, Equatable {
    /// "card0", "fb0" or "memory".
    public var device: String
    /// The connector ("Virtual-1", "HDMI-A-1"), or the framebuffer driver's id for fbdev.
    public var output: String
    /// The panel's size in pixels (before rotation).
    public var panelWidth: Int
    public var panelHeight: Int
    /// Refresh rate in Hz (the mode's, or an assumed 60 when the device does not say).
    public var refreshHz: Double
    /// "drm", "fbdev" or "memory".
    public var backend: String

    public init(device: String, output: String, panelWidth: Int, panelHeight: Int, refreshHz: Double, backend: String) {
        self.device = device
        self.output = output
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.refreshHz = refreshHz
        self.backend = backend
    }

    public var description: String {
        return "\(device) \(output) \(panelWidth)x\(panelHeight)@\(Int(refreshHz.rounded())) (\(backend))"
    }
}

/// One output a frame loop can show pictures on (after Plymouth's renderer interface).
///
/// The presenter owns a shadow buffer in ordinary cached memory, sized as the picture (rotation
/// already applied). Callers draw into `shadow.surface`, then `present(damage:)` converts and
/// copies the damaged rectangles to the scan-out memory and shows it; scan-out memory
/// (write-combined on real hardware) is never read. A scan-out buffer that missed earlier frames
/// (the back buffer of a page flip, EGL's buffer age) gets their damage too, so it always ends
/// with the same bytes a whole copy gives. `present` returns when the next frame may be drawn: it
/// paces to the display's refresh (vblank where the device reports it, a clock otherwise), and
/// never spins; a frame with empty damage shows nothing and waits one refresh by the clock.
public protocol Presenter: AnyObject {
    var display: DisplayInfo { get }
    var rotation: Rotation { get }
    /// The picture the next `present()` shows; width/height are the picture's (rotated) size.
    var shadow: PixelBuffer { get }
    /// Shows the shadow buffer, copying only `damage` (picture coordinates): the pixels that can
    /// differ from the frame presented before.
    func present(damage: Damage) throws(KioskError)
    /// Seconds the last `present` spent copying the shadow to scan-out memory (for benchmarks).
    var lastCopySeconds: Double { get }
    /// Puts back what was on the display before (CRTC, console mode). Safe to call more than once.
    func restore()
    /// How frames reach the screen and what paces them, for diagnostics: vblank (page-flip events,
    /// FBIO_WAITFORVSYNC) or a clock at the refresh rate (no vblank, or reports that came back at
    /// once, as in virtual machines).
    var pacing: String { get }
    /// Re-reads the display's state after the kernel reported a display hotplug, and shows the
    /// picture again if a display came back. Throws when the display can no longer be driven as
    /// it was (a new one that does not offer the mode). Default: nothing to do.
    func displayChanged() throws(KioskError)
    /// Turns the display's power off (DPMS) or back on, for a kiosk's night hours; while it is
    /// off nothing is presented. Returns false when this output cannot (then nothing changed).
    func setScreen(on: Bool) throws(KioskError) -> Bool

    // A loop over several outputs cannot block on one output's flip while another is ready, so
    // presenting also comes in two halves: `queue` shows the frame without waiting, and
    // `frameWait` says when the next one may be drawn.

    /// Shows the shadow like `present(damage:)` but returns without waiting for the display: the
    /// damage is copied and the flip queued. `now` is the loop's clock (monotonic seconds).
    func queue(damage: Damage, now: Double) throws(KioskError)
    /// What the frame after the last `queue` waits for, at `now`; takes up the flip events that
    /// have arrived (without blocking). Default: nothing (`queue` waited already).
    func frameWait(now: Double) throws(KioskError) -> FrameWait
    /// Whether frames drawn now reach a display: false while its display is unplugged, so the
    /// loop draws nothing for it until `displayChanged` brings it back. Default: true.
    var isShowing: Bool { get }
}

/// When an output may take its next frame.
public enum FrameWait: Equatable, Sendable {
    /// Now.
    case ready
    /// At this monotonic time (a clock-paced display's next refresh).
    case at(Double)
    /// When `descriptor` has the page flip's event, or at `deadline` should it never come (a
    /// lost event must not freeze the display: then the flip counts as done).
    case flip(FileDescriptor, deadline: Double)
}

extension Presenter {
    /// Shows the whole shadow buffer.
    public func present() throws(KioskError) {
        try present(damage: .whole(width: shadow.width, height: shadow.height))
    }

    public func displayChanged() throws(KioskError) {}
    public func setScreen(on: Bool) throws(KioskError) -> Bool { false }
    public var isShowing: Bool { true }

    /// A presenter that only has the blocking half: `present` paces, so the next frame is ready.
    public func queue(damage: Damage, now: Double) throws(KioskError) { try present(damage: damage) }
    public func frameWait(now: Double) throws(KioskError) -> FrameWait { .ready }

    public var width: Int { shadow.width }
    public var height: Int { shadow.height }
}
