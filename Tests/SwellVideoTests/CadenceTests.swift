import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellScenes
import SwellService
import SwellSystem
import SwellVideo
import Testing

/// A video element in a page, presented refresh by refresh: which picture each refresh shows,
/// what each frame redraws, and what a decoder that falls behind does.
@Suite struct CadenceTests {
    /// A page with the video placed in a frame over a plain background.
    /// `starts` records the start of the picture each frame shows.
    static func page(_ playback: VideoPlayback, starts: Box<[Double]>) -> ScenePlayer {
        let video = SceneVideo { time, size in
            guard let shown = playback.frame(at: time, width: size.width, height: size.height) else { return nil }
            starts.value.append(shown.start)
            return (shown.buffer, shown.end)
        }
        var settings = VideoScene.descriptor.defaultSettings()
        settings.set("scale", .text("fill"))
        let frame = ElementFrame(
            horizontal: .init(start: .pixels(40), size: .pixels(160)),
            vertical: .init(start: .pixels(30), size: .pixels(120)))
        return ScenePlayer(
            layers: [VideoScene(settings, video: video)], background: Color(r: 0.1, g: 0.2, b: 0.3),
            placements: [.init(id: "video", frame: frame)])
    }

    /// A 25 fps clip on a 60 Hz memory presenter for 10 s: every picture is shown, each for 2 or
    /// 3 refreshes, exactly the refreshes whose time falls in its interval (the 3:2-like pattern),
    /// none repeated out of pattern; a refresh with no new picture redraws nothing of the video.
    @Test func aTwentyFiveFramesASecondClipKeepsItsCadenceAtSixtyHertz() throws {
        let clip = try TestClips.make("cadence", seconds: 10, keyEvery: 50)
        let playback = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fill), background: 0,
            waitsForFrames: true)
        let starts = Box<[Double]>([])
        let player = Self.page(playback, starts: starts)
        let presenter = MemoryPresenter(panelWidth: 320, panelHeight: 240)
        var shownAt: [Int] = []  // the picture index shown at each refresh
        var redrawn = 0
        for refresh in 0..<600 {
            let time = Double(refresh) / 60
            let damage = player.render(at: time, into: presenter.shadow.surface)
            try presenter.present(damage: damage)
            let index = Int((starts.value.last! * 25).rounded())
            shownAt.append(index)
            if refresh > 0 && index != shownAt[refresh - 1] {
                redrawn += 1
                #expect(damage.rects == [ClipRect(x0: 40, y0: 30, x1: 200, y1: 150)], "refresh \(refresh): \(damage)")
            } else if refresh > 0 {
                #expect(damage.rects.isEmpty, "refresh \(refresh) redrew \(damage) with the same picture")
            }
            // Never early, never late: the interval [i/25, (i+1)/25) holds the refresh's time.
            #expect(index == Int((time * 25 + 1e-9).rounded(.down)), "refresh \(refresh) shows picture \(index)")
        }
        var runs: [Int: Int] = [:]
        for index in shownAt { runs[index, default: 0] += 1 }
        #expect(runs.count == 250, "every picture of 10 s at 25 fps is shown")
        #expect(runs.values.allSatisfy { $0 == 2 || $0 == 3 })
        // Shown in one run each: a picture never comes back.
        #expect(zip(shownAt, shownAt.dropFirst()).allSatisfy { $0 <= $1 && $1 - $0 <= 1 })
        // Only refreshes with a new picture copy anything to the scan-out.
        #expect(redrawn == 249 && presenter.presentedFrames == 250)
        #expect(playback.dropped == 0 && playback.shownCount == 250)
        // Between pictures the page is idle until the next one is due.
        #expect(player.isIdle(at: 598.0 / 60))
    }

    /// A kiosk never waits for a late picture: with a decoder slower than the clip, the picture
    /// before stays on screen, pictures whose time passed are dropped and counted, and none is
    /// shown before its time.
    @Test func aDecoderThatFallsBehindDropsPicturesAndNeverShowsOneEarly() throws {
        let clip = try TestClips.make("slow", seconds: 4)
        let slow = SlowDecoder(try FFmpegDecoder(path: clip), delay: 0.1)
        let playback = try VideoPlayback(
            decoder: slow, loops: false, scaling: VideoScaling(.fit), background: 0, waitsForFrames: false)
        let start = monotonicSeconds()
        var previous = -1.0
        while monotonicSeconds() - start < 1.5 {
            let time = monotonicSeconds() - start
            let shown = try #require(playback.frame(at: time, width: 80, height: 60))
            #expect(shown.start <= time + 1e-9 || previous < 0, "picture of \(shown.start) s shown at \(time) s")
            #expect(shown.start >= previous)
            previous = shown.start
            sleepUntil(monotonic: monotonicSeconds() + 1.0 / 60)
        }
        // 40 ms pictures, 100 ms to decode each: they all come too late, and none is converted.
        #expect(playback.dropped > 5, "dropped \(playback.dropped)")
        #expect(playback.shownCount >= 1)
    }
}

/// A reference the closures of a test can append to.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// The decoder seam in use: FFmpeg's decoder made slower than real time (a small CPU).
final class SlowDecoder: VideoDecoder {
    let inner: VideoDecoder
    let delay: Double
    init(_ inner: VideoDecoder, delay: Double) {
        self.inner = inner
        self.delay = delay
    }
    var info: VideoInfo { inner.info }
    func advance() throws(VideoError) -> VideoTiming? {
        sleepUntil(monotonic: monotonicSeconds() + delay)
        return try inner.advance()
    }
    func seek(to seconds: Double) throws(VideoError) { try inner.seek(to: seconds) }
    func render(into surface: PixelSurface, scaling: VideoScaling) { inner.render(into: surface, scaling: scaling) }
}
