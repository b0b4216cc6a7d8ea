import Foundation
import SwellRaster
import SwellVideo
import Testing

/// FFmpegDecoder and VideoPlayback against FFmpeg's own decode of the same clips.
@Suite struct DecoderTests {
    @Test func opensAClipAndReportsItsFacts() throws {
        let decoder = try FFmpegDecoder(path: try TestClips.make("facts", seconds: 2))
        #expect(decoder.info.width == 320 && decoder.info.height == 240)
        #expect(decoder.info.codec == "h264")
        #expect(abs(decoder.info.duration - 2) < 1e-6)
        #expect(abs(decoder.info.frameRate - 25) < 1e-9)
    }

    /// At its own size a picture agrees with `ffmpeg -ss t -frames:v 1 -pix_fmt bgr0`: mean channel
    /// difference at most 1/255, maximum at most 3/255 (the bound), for each codec.
    @Test(arguments: [
        ("h264", "libx264", "mp4"), ("hevc", "libx265", "mkv"), ("vp9", "libvpx-vp9", "webm"),
        ("av1", "libaom-av1", "mkv"),
    ])
    func nativeSizeFramesMatchFFmpegsOwnDecode(codec: String, encoder: String, container: String) throws {
        let clip = try TestClips.make("native-\(codec)", seconds: 1, codec: encoder, container: container)
        let playback = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fit), background: 0xFF00_0000,
            waitsForFrames: true)
        for index in [0, 7, 13, 24] {
            let start = Double(index) / 25
            // Half a picture in, so the interval holds the time whatever the time base rounds.
            let shown = try #require(playback.frame(at: start + 0.02, width: 320, height: 240))
            #expect(abs(shown.start - start) < 1e-3, "picture \(index) starts at \(shown.start)")
            let difference = ChannelDifference(shown.buffer.surface, try TestClips.reference(clip, at: start))
            #expect(difference.mean <= 1.0, "\(codec) picture \(index): mean \(difference.mean)")
            #expect(difference.maximum <= 3, "\(codec) picture \(index): max \(difference.maximum)")
        }
    }

    /// The colour matrix and range come from the stream's flags: a BT.709 full-range clip and a
    /// BT.601 limited one both agree with FFmpeg's conversion, and differ from each other.
    @Test func colourFlagsOfTheStreamAreFollowed() throws {
        let flags709 = [
            "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "pc",
        ]
        let full709 = try TestClips.make("bt709-full", seconds: 0.4, extra: flags709)
        let limited601 = try TestClips.make(
            "bt601-limited", seconds: 0.4, extra: ["-colorspace", "smpte170m", "-color_range", "tv"])
        var frames: [PixelBuffer] = []
        for clip in [full709, limited601] {
            let playback = try VideoPlayback(
                decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fill), background: 0,
                waitsForFrames: true)
            let shown = try #require(playback.frame(at: 0.2, width: 320, height: 240))
            let difference = ChannelDifference(shown.buffer.surface, try TestClips.reference(clip, at: 0.2))
            #expect(difference.mean <= 1.0 && difference.maximum <= 3, "\(clip): \(difference)")
            frames.append(shown.buffer)
        }
        #expect(frames[0].packedBytes() != frames[1].packedBytes())
    }

    /// Scaled pictures (bicubic, FFmpeg's default filter) against FFmpeg's `scale` filter to the
    /// same size: the same library and filter, so the same bound holds.
    @Test func scaledFramesMatchFFmpegsScaleFilter() throws {
        let clip = try TestClips.make("scaled", width: 640, height: 360, seconds: 0.4)
        let playback = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fill), background: 0,
            waitsForFrames: true)
        let shown = try #require(playback.frame(at: 0.22, width: 960, height: 540))
        let reference = try TestClips.reference(clip, at: 0.2, scale: "scale=960:540:flags=bicubic")
        let difference = ChannelDifference(shown.buffer.surface, reference)
        #expect(difference.mean <= 1.0 && difference.maximum <= 3, "\(difference)")
    }

    /// `fit` keeps the whole picture between bars of the background; `fill` covers the frame.
    @Test func fitLeavesBarsAndFillCoversTheFrame() throws {
        let clip = try TestClips.make("aspect", width: 320, height: 240, seconds: 0.4)
        let bar: UInt32 = 0xFF12_3456
        let fit = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fit), background: bar,
            waitsForFrames: true)
        let fitted = try #require(fit.frame(at: 0, width: 400, height: 150)).buffer.surface
        // 320x240 in 400x150: 200x150 in the middle, bars of 100 px on each side.
        #expect(fitted.pixel(x: 0, y: 75) == bar && fitted.pixel(x: 99, y: 75) == bar)
        #expect(fitted.pixel(x: 300, y: 75) == bar && fitted.pixel(x: 399, y: 0) == bar)
        #expect(fitted.pixel(x: 100, y: 75) != bar && fitted.pixel(x: 299, y: 75) != bar)
        let fill = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fill), background: bar,
            waitsForFrames: true)
        let filled = try #require(fill.frame(at: 0, width: 400, height: 150)).buffer.surface
        for x in [0, 399] { for y in [0, 149] { #expect(filled.pixel(x: x, y: y) != bar) } }
    }

    /// Seeking is exact: any time, in any order, shows the picture whose interval holds it, the
    /// same bytes as reaching it by playing from the start (key frames are 12 pictures apart).
    @Test func seekingShowsThePictureWhoseIntervalHoldsTheTime() throws {
        let clip = try TestClips.make("seek", seconds: 2, keyEvery: 12)
        let played = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fit), background: 0,
            waitsForFrames: true)
        var inOrder: [[UInt8]] = []
        for index in 0..<50 {
            let shown = try #require(played.frame(at: (Double(index) + 0.5) / 25, width: 160, height: 120))
            #expect(abs(shown.start * 25 - Double(index)) < 0.01)
            inOrder.append(shown.buffer.packedBytes())
        }
        let sought = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fit), background: 0,
            waitsForFrames: true)
        for index in [37, 5, 49, 11, 12, 13, 0, 30, 23] {
            let shown = try #require(sought.frame(at: (Double(index) + 0.5) / 25, width: 160, height: 120))
            #expect(abs(shown.start * 25 - Double(index)) < 0.01, "wanted picture \(index)")
            #expect(shown.buffer.packedBytes() == inOrder[index], "picture \(index) after a seek")
        }
    }

    /// A looping video goes on with its first picture after its last, timed on; one played once
    /// holds its last picture for ever.
    @Test func loopsOrHoldsTheLastPicture() throws {
        let clip = try TestClips.make("loop", seconds: 1)
        let looping = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: true, scaling: VideoScaling(.fit), background: 0,
            waitsForFrames: true)
        let first = try #require(looping.frame(at: 0.01, width: 160, height: 120)).buffer.packedBytes()
        var last: [UInt8] = []
        for index in 0..<60 {
            let shown = try #require(looping.frame(at: (Double(index) + 0.5) / 25, width: 160, height: 120))
            #expect(abs(shown.start * 25 - Double(index)) < 0.01)
            if index == 24 { last = shown.buffer.packedBytes() }
            if index == 25 || index == 50 { #expect(shown.buffer.packedBytes() == first) }
        }
        // Asked first for a time past the end (a dump of one late frame): the last picture.
        let late = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fit), background: 0,
            waitsForFrames: true)
        let held = try #require(late.frame(at: 10, width: 160, height: 120))
        #expect(held.end == .infinity && held.buffer.packedBytes() == last)
        let once = try VideoPlayback(
            decoder: try FFmpegDecoder(path: clip), loops: false, scaling: VideoScaling(.fit), background: 0,
            waitsForFrames: true)
        for time in [0.5, 0.98, 1.5, 30] {
            let shown = try #require(once.frame(at: time, width: 160, height: 120))
            if time > 1 {
                #expect(shown.end == .infinity)
                #expect(shown.buffer.packedBytes() == last)
            }
        }
    }
}
