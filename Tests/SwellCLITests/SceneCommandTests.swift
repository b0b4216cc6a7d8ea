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

    @Test func aFontThatIsNotInstalledExitsWithDataErrorNamingItsPath() throws {
        let folder = try temporaryFolder()
        let page = #"{"layers": [{"scene": "text", "parameters": {"text": "Hi", "font": "Nosuchfamily Sans"}}]}"#
        try Data(page.utf8).write(to: URL(fileURLWithPath: folder + "/fonts.json"))
        let result = try SwellProcess.run([
            "dump", folder + "/fonts.json", "--size", "8x8", "--frames", "0", "-o", folder + "/out",
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("$.layers[0].parameters.font: no installed font matches \"Nosuchfamily Sans\""))
        #expect(result.stderr.contains("fc-list : family"))
    }

    /// The slideshow checks every file's header at start-up (a file that is not a PNG is left
    /// out, named on standard error, and the others play: issue 38), and decodes each picture only
    /// when it is shown: one that turns out to be truncated is reported and skipped, and the run
    /// goes on.
    @Test func slideshowSkipsANonPNGAtStartAndATruncatedOneWhileRunning() throws {
        let folder = try temporaryFolder()
        let pictures = folder + "/pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        // a and b are PNGs, c a JPEG (the slideshow reads both).
        for (name, colour) in [("a.png", UInt32(0xFF20_4080)), ("b.png", 0xFF80_4020), ("c.jpg", 0xFF40_8020)] {
            let picture = PixelBuffer(width: 64, height: 48)
            for y in 0..<48 {
                for x in 0..<64 { picture.surface.row(y)[x] = colour ^ UInt32((x * 7 + y * 13) & 0x0F) }
            }
            if name.hasSuffix(".jpg") {
                writeJPEG(picture, to: pictures + "/" + name)
            } else {
                try writePNG(picture.surface, to: pictures + "/" + name)
            }
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: pictures + "/b.png"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: pictures + "/b.png"))
        try Data(
            #"{"scene": "slideshow", "parameters": {"folder": "pictures", "interval": 1, "transition": 0.5}}"#.utf8
        )
        .write(to: URL(fileURLWithPath: folder + "/show.json"))
        let arguments = ["dump", folder + "/show.json", "--size", "32x24", "--fps", "4", "--frames", "0..9"]
        let run = try SwellProcess.run(arguments + ["-o", folder + "/frames"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("swell: skipping \(pictures)/b.png: PNG decoding failed"), "\(run.stderr)")
        // Frame 6 (1.5 s) shows the JPEG c, revealed in place of the broken b; frame 2 (0.5 s) shows a.
        let first = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/frames/frame-000002.raw")))
        let later = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/frames/frame-000006.raw")))
        #expect(first[2] > 0x18 && first[2] < 0x28 && later[2] > 0x38 && later[2] < 0x48, "red of a, then c")

        try Data("not a png".utf8).write(to: URL(fileURLWithPath: pictures + "/d.png"))
        let skipped = try SwellProcess.run(arguments + ["-o", folder + "/skipped"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.contains("swell: skipping \(pictures)/d.png: not a readable PNG"), "\(skipped.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/skipped/manifest.json"))
    }

    /// `swell show` of a JPEG shot sideways (EXIF orientation 6): the memory presenter's picture
    /// is the decoded, upright photo centred on the panel.
    @Test func showPutsAnUprightJPEGOnTheDisplay() throws {
        let folder = try temporaryFolder()
        let stored = PixelBuffer(width: 48, height: 32)
        for y in 0..<32 {
            for x in 0..<48 { stored.surface.row(y)[x] = x < 16 ? 0xFFE0_2020 : 0xFF20_20E0 }
        }
        writeJPEG(stored, to: folder + "/photo.jpg", orientation: 6)
        let run = try SwellProcess.run([
            "show", folder + "/photo.jpg", "--output", "memory", "--size", "40x60", "--save", folder + "/screen.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let screen = try readPNG(path: folder + "/screen.png")
        let photo = try readJPEG(path: folder + "/photo.jpg")
        #expect(photo.width == 32 && photo.height == 48)
        // Centred: 4 px of black left and right, 6 above and below.
        for y in 0..<60 {
            for x in 0..<40 {
                let inside = (4..<36).contains(x) && (6..<54).contains(y)
                let expected = inside ? photo.surface.row(y - 6)[x - 4] : 0xFF00_0000
                #expect(screen.surface.row(y)[x] == expected, "(\(x), \(y))")
            }
        }
        // Turned clockwise: the stored left (red) third is now the top third.
        #expect(photo.surface.row(2)[16] >> 16 & 0xFF > 0xC0 && photo.surface.row(40)[16] & 0xFF > 0xC0)

        // --scale fit and fill on a wide panel (bars left and right, or the photo cropped above and
        // below): the upright photo scaled to it, as the library scales it.
        for (how, scale) in [
            ("fit", { scaleImageToFit($0, into: $1, background: 0xFF00_0000) }), ("fill", scaleImageToFill),
        ]
            as [(String, (PixelSurface, PixelSurface) -> Void)]
        {
            let scaled = try SwellProcess.run([
                "show", folder + "/photo.jpg", "--scale", how, "--output", "memory", "--size", "64x40", "--save",
                folder + "/\(how).png",
            ])
            #expect(scaled.status == 0, "\(scaled.stderr)")
            let expected = PixelBuffer(width: 64, height: 40)
            scale(photo.surface, expected.surface)
            let shot = try readPNG(path: folder + "/\(how).png")
            #expect(shot.packedBytes() == expected.packedBytes(), "--scale \(how)")
        }
        let refused = try SwellProcess.run(["show", folder + "/photo.jpg", "--scale", "stretch", "--output", "memory"])
        #expect(refused.status == 64 && refused.stderr.contains("--scale must be none, fit or fill, not 'stretch'"))
    }
}
