import SwellRaster

/// `video`: a clip (MP4, MKV or WebM; H.264, HEVC, VP9, AV1) placed like every element, scaled
/// to fit its frame between bars or to fill it, looped or played once (then its last picture
/// stays). Muted. This module reads no files: the caller supplies the pictures by time
/// (`SceneVideo`; the `swell` command decodes them with FFmpeg on a thread of their own).
///
/// Each picture is one `.image` op of the one display list, so text and waves over a video and
/// the page's wave-mask wipe cost nothing extra, and damage is the video's rectangle only when a
/// new picture is due: a 25 fps clip on a 60 Hz page redraws 25 times a second, and between
/// pictures the scene is idle until the next one's time (`nextWake`). The video's clock is the
/// scene clock: the picture at scene time t is the clip's picture at t (modulo its length when
/// it loops), so dumps and goldens of a page with a video are exact.
public struct VideoScene: Scene {
    public static let descriptor = SceneDescriptor(
        name: "video",
        summary: "a video file (MP4, MKV, WebM: H.264, HEVC, VP9, AV1), muted, looped or played once",
        parameters: [
            .text("file", "video.mp4", "the video file (relative to the scene file)"),
            .bool("loop", true, "start again after the end (false: the last picture stays)"),
            .choice(
                "scale", "fit", of: ["fit", "fill"],
                "fit: the whole picture, with background bars; fill: cover the frame, cropping what overflows"),
            .color(
                "background", "#000000", "the bars around a picture that fits, and the screen before the first picture"),
        ],
        make: { settings, media, _ in VideoScene(settings, video: media.video ?? .none) })

    public let background: Color
    let video: SceneVideo
    /// When the picture of the last frame gives way to the next (infinity: never).
    var nextChange = -Double.infinity

    public init(_ settings: SceneSettings, video: SceneVideo) {
        background = settings.color("background")
        self.video = video
    }

    public mutating func handle(_ event: TouchEvent) {}

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        guard size.width > 0, size.height > 0, let shown = video.frame(time, size) else {
            nextChange = .infinity
            return
        }
        ops.append(.image(shown.picture, alpha: 1))
        nextChange = shown.until
    }

    public func isIdle(at time: Double) -> Bool { time < nextChange }

    public func nextWake(after time: Double) -> Double? { nextChange.isFinite ? nextChange : nil }
}

/// A video element's pictures by time, from whoever decodes them (this module reads no files).
public struct SceneVideo {
    /// What is asked for: the element's file (as the scene file names it, resolved against the
    /// scene file's folder), whether it loops, how it is scaled and the bars' colour.
    public struct Request: Equatable, Sendable {
        public let file: String
        public let loops: Bool
        public let fills: Bool
        public let background: Color

        public init(file: String, loops: Bool, fills: Bool, background: Color) {
            self.file = file
            self.loops = loops
            self.fills = fills
            self.background = background
        }
    }

    /// The picture shown at `time` (seconds of the scene clock) scaled into a frame of `size`,
    /// and when the next one is due (infinity: this one stays); nil when there is no picture. A
    /// picture shown again is the same buffer (the renderer then draws nothing), and a new picture
    /// is a buffer that was not shown in the frame before (so damage sees it).
    public let frame: (Double, FrameSize) -> (picture: PixelBuffer, until: Double)?

    public init(frame: @escaping (Double, FrameSize) -> (picture: PixelBuffer, until: Double)?) {
        self.frame = frame
    }

    /// No pictures: the element shows its background.
    public static var none: SceneVideo { SceneVideo { _, _ in nil } }

    /// The request a video layer's settings make, its file named relative to the scene file `name`.
    static func request(_ settings: SceneSettings, from name: String) -> Request {
        Request(
            file: resolvePage(settings.text("file"), from: name), loops: settings.bool("loop"),
            fills: settings.text("scale") == "fill", background: settings.color("background"))
    }
}

/// What a scene shows that the caller loads: a slideshow's pictures, a video element's frames.
public struct SceneMedia {
    public var images: SceneImages
    public var video: SceneVideo?

    public init(images: SceneImages = .none, video: SceneVideo? = nil) {
        self.images = images
        self.video = video
    }

    public static var none: SceneMedia { SceneMedia() }
}
