import SwellOutput
import SwellRaster
import SwellScenes
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every example page at chosen times (taps on its buttons where it has some), compared with
/// committed reductions in Goldens/examples/ by the code `swell diff` uses.
///
/// Text is drawn from the installed fonts (Debian's fonts-dejavu-core and fonts-quicksand, which
/// scripts/setup installs), so Goldens/examples/fonts.txt records the font files the goldens
/// were made with, and a machine with other files is told so rather than shown pixel noise.
///
/// To re-record after an intended change:
/// `SWELL_RECORD_GOLDENS=1 swift test -c release --filter ExampleGoldenTests`, then look at the
/// PNGs and commit them with fonts.txt.
@Suite struct ExampleGoldenTests {
    static let folder = GoldenTests.folder + "/examples"
    static let fontsFile = folder + "/fonts.txt"

    static func recordedFonts() -> [String] {
        String(decoding: ExampleFileTests.read(fontsFile), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func everyExampleHasGoldens() {
        let cases = Set(ExampleGoldenCase.all.map(\.name))
        // examples/kiosk.json is the kiosk file's example (SwellKioskTests), not a page.
        for file in fileNames(in: ExampleFileTests.examples) where file.hasSuffix(".json") && file != "kiosk.json" {
            let name = String(file.dropLast(5))
            #expect(cases.contains(name), "examples/\(file) has no golden case: add one to ExampleGoldenCase.all")
        }
    }

    @Test func theFontsAreTheOnesTheGoldensWereMadeWith() throws {
        let here = exampleFontLines()
        if GoldenTests.recording {
            try writeText(here.joined(separator: "\n") + "\n", to: Self.fontsFile)
            return
        }
        #expect(
            here == Self.recordedFonts(),
            """
            the example goldens were made with other font files (pattern, file, bytes, FNV-1a): \
            recorded \(Self.recordedFonts()), here \(here); install fonts-dejavu-core and fonts-quicksand \
            (scripts/setup --build), or re-record the goldens if the fonts changed on purpose
            """)
    }

    /// A frame does not depend on which earlier frames were drawn: each example's last golden
    /// frame drawn alone (its touches up to then delivered first) equals the one drawn after the
    /// others (a page switch dated from the next frame drawn failed this).
    @Test(arguments: ExampleGoldenCase.all.filter { $0.times.count > 1 })
    func aFrameDoesNotDependOnTheFramesDrawnBeforeIt(_ golden: ExampleGoldenCase) throws {
        let inSequence = try golden.renderFrames().last!
        let alone = try ExampleGoldenCase(name: golden.name, script: golden.script, times: [golden.times.last!])
            .renderFrames()[0]
        let same = alone.packedBytes() == inSequence.packedBytes()  // a Bool: the bytes are not printed
        #expect(
            same, "examples/\(golden.name).json at \(golden.times.last!) s differs when the frames before it are drawn")
    }

    @Test(arguments: ExampleGoldenCase.all)
    func exampleMatchesItsGoldens(_ golden: ExampleGoldenCase) throws {
        let frames = try golden.renderFrames()
        let fontsDiffer = exampleFontLines() != Self.recordedFonts()
        for (time, frame) in zip(golden.times, frames) {
            try GoldenTests.check(
                frame, against: Self.folder + "/" + golden.goldenName(time: time),
                what: "examples/\(golden.name).json at \(time) s",
                hint: fontsDiffer ? " (the fonts differ from the recorded ones: see fonts.txt)" : "",
                showsVideo: golden.showsVideo)
        }
    }
}

struct WriteFailure: Error { let path: String }

/// Writes `text` to `path` whole.
func writeText(_ text: String, to path: String) throws {
    guard let file = fopen(path, "wb") else { throw WriteFailure(path: path) }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw WriteFailure(path: path) }
}
