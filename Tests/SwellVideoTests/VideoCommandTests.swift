import Foundation
import SwellRaster
import SwellVideo
import Testing

/// Pages with video elements through the `swell` command: dumps against FFmpeg's own decode,
/// and the errors a bad clip gets at load.
@Suite struct VideoCommandTests {
    /// A scene file beside the clip (`file` is relative to the scene file).
    static func page(_ text: String, named name: String) throws -> String {
        let path = TestClips.folder + "/" + name + ".json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `swell dump` of a page with a video at time t: the frame equals FFmpeg's decode of the
    /// picture at t converted to RGB (mean ≤ 1/255, max ≤ 3/255), and two dumps are the same bytes.
    @Test func aDumpedFrameIsFFmpegsPictureAtThatTime() throws {
        let clip = try TestClips.make("dumped", width: 320, height: 240, fps: 30, seconds: 3, keyEvery: 30)
        let page = try Self.page(
            #"{"scene": "video", "parameters": {"file": "dumped.mp4", "loop": false, "scale": "fit"}}"#, named: "dumped"
        )
        var runs: [[UInt8]] = []
        for attempt in 0..<2 {
            let out = TestClips.folder + "/dump-\(attempt)"
            // Frame 47 at 20 fps is t = 2.35 s: picture 70 of the 30 fps clip (2.333… ≤ t < 2.366…).
            let run = try TestClips.swell([
                "dump", page, "--size", "320x240", "--fps", "20", "--frames", "47..47", "-o", out,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            runs.append(try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/frame-000047.raw"))))
        }
        #expect(runs[0] == runs[1], "the same time gives the same bytes")
        let reference = try TestClips.reference(clip, at: 70.0 / 30)
        let frame = PixelBuffer(width: 320, height: 240)
        runs[0].withUnsafeBytes { bytes in
            frame.surface.base.copyMemory(from: bytes.baseAddress!, byteCount: 320 * 240 * 4)
        }
        let difference = ChannelDifference(frame.surface, reference)
        #expect(difference.mean <= 1.0 && difference.maximum <= 3, "\(difference)")
        // Picture 69 is another picture: the comparison can fail.
        let before = ChannelDifference(frame.surface, try TestClips.reference(clip, at: 69.0 / 30))
        #expect(before.maximum > 3)
    }

    /// A missing file, a file FFmpeg cannot open and a file without a video stream: each one
    /// line naming the scene file, the JSON path, the file, what was found and what is
    /// supported; all of them in one run, exit 65.
    @Test func badClipsAreRefusedAtLoadWithOneLineEach() throws {
        try TestClips.ffmpeg([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
            TestClips.folder + "/sound.mka",
        ])
        try "not a video at all\n".write(toFile: TestClips.folder + "/notes.mp4", atomically: true, encoding: .utf8)
        let page = try Self.page(
            """
            {"layers": [
              {"scene": "video", "parameters": {"file": "missing.mp4"}},
              {"scene": "video", "parameters": {"file": "notes.mp4"}},
              {"scene": "video", "parameters": {"file": "sound.mka"}}
            ]}
            """, named: "bad-clips")
        let run = try TestClips.swell([
            "dump", page, "--size", "64x48", "--frames", "0..0", "-o", TestClips.folder + "/x",
        ])
        #expect(run.status == 65)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let missing = lines.first { $0.contains("$.layers[0].parameters.file") }
        let notVideo = lines.first { $0.contains("$.layers[1].parameters.file") }
        let sound = lines.first { $0.contains("$.layers[2].parameters.file") }
        #expect(
            missing?.contains("missing.mp4\": cannot read the file: No such file or directory") == true, "\(run.stderr)"
        )
        #expect(notVideo?.contains("notes.mp4\": FFmpeg cannot open this file") == true, "\(run.stderr)")
        #expect(notVideo?.contains("supported: MP4, MKV or WebM files with a video stream in h264") == true)
        #expect(sound?.contains("sound.mka\": the file (matroska,webm) holds no video stream") == true, "\(run.stderr)")
        #expect(run.stderr.contains("bad-clips.json: 3 problems"))
        #expect(!FileManager.default.fileExists(atPath: TestClips.folder + "/x/manifest.json"))
    }

    /// A corrupt packet in the middle of a file: that picture is skipped with a journal line,
    /// and the rest play on to the end.
    @Test func aCorruptPacketIsSkippedAndTheRestPlayOn() throws {
        let clip = try TestClips.make("corrupt", seconds: 2, codec: "libvpx-vp9", container: "webm", keyEvery: 100)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clip)))
        // The 21st packet's payload scrambled (its place from ffprobe, FFmpeg's own reading).
        let probe = try TestClips.runProgram(
            "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=pos,size", "-of", "csv=p=0", clip])
        let packets = probe.stdout.split(separator: "\n").map { $0.split(separator: ",").compactMap { Int($0) } }
        let (size, position) = (packets[21][0], packets[21][1])
        for index in (position + 8)..<(position + size - 8) { bytes[index] = bytes[index] &* 7 &+ 13 }
        let broken = TestClips.folder + "/broken.webm"
        try Data(bytes).write(to: URL(fileURLWithPath: broken))
        let page = try Self.page(
            #"{"scene": "video", "parameters": {"file": "broken.webm", "loop": false}}"#, named: "broken")
        let out = TestClips.folder + "/broken-dump"
        let run = try TestClips.swell([
            "dump", page, "--size", "320x240", "--fps", "25", "--frames", "0..49", "-o", out,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let skipped = run.stderr.split(separator: "\n").filter {
            $0.contains("does not decode") && $0.contains("skipped")
        }
        #expect((1...2).contains(skipped.count), "\(run.stderr)")
        // Played on: pictures after the broken one still change (a stream that stopped would hold one).
        let last = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/frame-000049.raw")))
        let earlier = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/frame-000030.raw")))
        #expect(last != earlier)
    }
}
