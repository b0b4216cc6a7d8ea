import Foundation
import SwellOutput
import SwellRaster
import Testing

/// `swell scenes`, `swell dump` and `swell diff` as a user runs them.
@Suite struct SceneCommandTests {
    static var examples: String {
        let here = "\(#filePath)"
        return URL(fileURLWithPath: here).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples").path
    }

    @Test func scenesListsEveryBuiltInWithDefaults() throws {
        let result = try SwellProcess.run(["scenes"])
        #expect(result.status == 0)
        for name in ["wave —", "ripples —", "elastic —", "waveform —", "flow —", "slideshow —"] {
            #expect(result.stdout.contains(name))
        }
        #expect(result.stdout.contains("    lifetime      14 "))
        #expect(try SwellProcess.run(["scenes", "nope"]).status == 64)
    }

    @Test func dumpWritesFramesAndManifestAndIsRepeatable() throws {
        let folder = try temporaryFolder()
        let arguments = [
            "dump", Self.examples + "/ripples.json", "--size", "64x36", "--fps", "10", "--frames", "3..5",
            "--input", Self.examples + "/input/drag.json",
        ]
        let first = try SwellProcess.run(arguments + ["-o", folder + "/a", "--png"])
        #expect(first.status == 0, "\(first.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/a").sorted()
        #expect(
            names == [
                "frame-000003.png", "frame-000003.raw", "frame-000004.png", "frame-000004.raw", "frame-000005.png",
                "frame-000005.raw", "manifest.json",
            ])
        let raw = try Data(contentsOf: URL(fileURLWithPath: folder + "/a/frame-000004.raw"))
        #expect(raw.count == 64 * 36 * 4)
        let manifest = try String(contentsOfFile: folder + "/a/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"time\": 0.4,") && manifest.contains("\"stride\": 256"))
        #expect(try SwellProcess.run(arguments + ["-o", folder + "/b"]).status == 0)
        for n in 3...5 {
            let name = "/frame-00000\(n).raw"
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: folder + "/a" + name))
                    == Data(contentsOf: URL(fileURLWithPath: folder + "/b" + name)))
        }
        let same = try SwellProcess.run(["diff", folder + "/a", folder + "/b"])
        #expect(same.status == 0)
        #expect(same.stdout.contains("3 frames: max 0, mean 0.0000, 0 pixels differ (0.00 %), PSNR inf dB"))
    }

    @Test func diffReportsDifferencesAndBadInput() throws {
        let folder = try temporaryFolder()
        let a = PixelBuffer(width: 8, height: 4)
        let b = PixelBuffer(width: 8, height: 4)
        b.surface.row(1)[2] = 0xFF00_0300
        try writeRaw(a.surface, to: folder + "/a.raw")
        try writeRaw(b.surface, to: folder + "/b.raw")
        try writePNG(b.surface, to: folder + "/b.png")
        withExtendedLifetime((a, b)) {}
        let differ = try SwellProcess.run([
            "diff", folder + "/a.raw", folder + "/b.raw", "--size", "8x4", "--heatmap", folder + "/h.png",
        ])
        #expect(differ.status == 1)
        #expect(differ.stdout.hasPrefix("max 3, mean 0.0313, 1 pixels differ (3.13 %), PSNR"))
        #expect(FileManager.default.fileExists(atPath: folder + "/h.png"))
        #expect(
            try SwellProcess.run(["diff", folder + "/a.raw", folder + "/b.png", "--size", "8x4", "--tolerance", "3"])
                .status == 0)
        #expect(try SwellProcess.run(["diff", folder + "/a.raw", folder + "/b.raw"]).status == 2)  // no --size
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/short.raw"))
        let truncated = try SwellProcess.run(["diff", folder + "/a.raw", folder + "/short.raw", "--size", "8x4"])
        #expect(truncated.status == 2 && truncated.stderr.contains("truncated"))
        #expect(try SwellProcess.run(["diff", folder + "/a.raw", folder + "/b.raw", "--size", "4x4"]).status == 2)
    }

    @Test func invalidSceneFileExitsWithDataErrorListingEveryProblem() throws {
        let folder = try temporaryFolder()
        try Data(#"{"scene": "ripples", "parameters": {"speed": -1, "opacity": 2}}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/bad.json"))
        let result = try SwellProcess.run([
            "dump", folder + "/bad.json", "--size", "8x8", "--frames", "0", "-o", folder + "/out",
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("2 problems"))
        #expect(result.stderr.contains("$.parameters.speed: expected a number in 0...10000, got -1"))
        #expect(result.stderr.contains("$.parameters.opacity: expected a number in 0...1, got 2"))
        #expect(try SwellProcess.run(["dump", "wave", "--size", "8x8", "--frames", "5..2", "-o", folder]).status == 64)
    }
}
