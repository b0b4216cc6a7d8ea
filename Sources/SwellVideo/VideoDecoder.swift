import SwellRaster

/// The seam between a video element and whatever decodes its file: FFmpeg's software decoders
/// today (`FFmpegDecoder`); a hardware decoder (V4L2 M2M on a Raspberry Pi 4, V4L2 stateless HEVC
/// on a Pi 5) would implement the same four calls. `VideoPlayback` drives one from its own
/// thread, so an implementation is used by one thread at a time and need not lock.
public protocol VideoDecoder: AnyObject {
    /// What the stream is: its size, length and codec, known once it opened.
    var info: VideoInfo { get }
    /// Decodes the next picture of the stream and returns when it is shown, or nil at the end
    /// of the stream. A packet that does not decode (a corrupt frame in the middle of a file) is
    /// skipped and reported, and decoding goes on with the next.
    func advance() throws(VideoError) -> VideoTiming?
    /// Moves to the last key frame at or before `seconds` (from the stream's start): the
    /// pictures `advance` returns next begin there, and the caller skips those that end before
    /// the time it wants. That makes seeking exact: the picture shown at t is the one whose
    /// interval holds t, however far back its key frame lies.
    func seek(to seconds: Double) throws(VideoError)
    /// Writes the picture `advance` returned last into `surface` as opaque XRGB8888, converted
    /// from the stream's colour space (its own matrix and range flags) and scaled as `scaling`
    /// says. Pixels outside the picture (the bars of a `fit`) are left as they are.
    func render(into surface: PixelSurface, scaling: VideoScaling)
}

/// A video stream's facts, for checks at load and for looping.
public struct VideoInfo: Sendable, Equatable {
    /// The pictures' size in pixels (as decoded, before any scaling).
    public var width: Int
    public var height: Int
    /// How long one play-through lasts, in seconds: from the first picture's start to the last
    /// one's end.
    public var duration: Double
    /// Pictures a second, as the stream declares it (informative: timing comes from each
    /// picture's own time stamp).
    public var frameRate: Double
    /// The codec's and container's short names, as FFmpeg names them ("h264", "mov,mp4,…").
    public var codec: String
    public var container: String

    public init(width: Int, height: Int, duration: Double, frameRate: Double, codec: String, container: String) {
        self.width = width
        self.height = height
        self.duration = duration
        self.frameRate = frameRate
        self.codec = codec
        self.container = container
    }
}

/// When a decoded picture is shown: from `start` until `end`, in seconds from the stream's start.
public struct VideoTiming: Sendable, Equatable {
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}

/// How a picture fills the buffer it is drawn into.
public struct VideoScaling: Sendable, Equatable {
    public enum Mode: String, Sendable {
        /// The whole picture, as large as fits, centred; the rest of the buffer is left as it is
        /// (the player paints it once with the element's background).
        case fit
        /// The buffer covered, the picture's overflow cut off equally on both sides.
        case fill
    }

    public var mode: Mode

    public init(_ mode: Mode) { self.mode = mode }

    /// Where a `width`×`height` picture lands in a `frameWidth`×`frameHeight` buffer (`place`), and
    /// which part of the picture is shown (`crop`, in picture pixels; the whole picture for
    /// `fit`). Both have even offsets and sizes where the picture's 4:2:0 chroma needs them.
    public func layout(width: Int, height: Int, frameWidth: Int, frameHeight: Int) -> (
        place: ClipRect, crop: ClipRect
    ) {
        let whole = ClipRect(x0: 0, y0: 0, x1: width, y1: height)
        let frame = ClipRect(x0: 0, y0: 0, x1: frameWidth, y1: frameHeight)
        // Compared as cross products, exactly: the picture is wider than the frame when w/h > W/H.
        let wider = width * frameHeight > frameWidth * height
        switch mode {
        case .fit:
            if wider {
                let shown = max(1, min(frameHeight, (height * frameWidth + width / 2) / width))
                let top = (frameHeight - shown) / 2
                return (ClipRect(x0: 0, y0: top, x1: frameWidth, y1: top + shown), whole)
            }
            let shown = max(1, min(frameWidth, (width * frameHeight + height / 2) / height))
            let left = (frameWidth - shown) / 2
            return (ClipRect(x0: left, y0: 0, x1: left + shown, y1: frameHeight), whole)
        case .fill:
            if wider {
                // The picture's middle columns, as many as the frame's shape allows (even).
                let kept = max(2, min(width, (frameWidth * height / frameHeight) & ~1))
                let left = ((width - kept) / 2) & ~1
                return (frame, ClipRect(x0: left, y0: 0, x1: left + kept, y1: height))
            }
            let kept = max(2, min(height, (frameHeight * width / frameWidth) & ~1))
            let top = ((height - kept) / 2) & ~1
            return (frame, ClipRect(x0: 0, y0: top, x1: width, y1: top + kept))
        }
    }
}
