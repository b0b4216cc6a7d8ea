import CPNG
import Foundation
import SwellOutput
import SwellRaster
import Testing

/// `readPNG(covering:)`: a PNG much larger than the screen is shrunk a row at a time as it is read
/// (so a huge poster never takes its full size in memory), giving exactly the box means of what
/// the whole decode gives; files the row reader would colour differently are decoded whole.
@Suite struct PNGReducedTests {
    /// Writes `width` x `height` pseudo-random pixels in libpng's simplified `format` (components
    /// per pixel `channels`, `bytes` per component); `colormap` writes a palette PNG instead.
    func writeTestPNG(
        _ path: String, width: Int, height: Int, format: Int32, channels: Int, bytes: Int = 1, colormap: Bool = false
    ) throws {
        var state: UInt32 = 12345
        func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(format) | (colormap ? png_uint_32(PNG_FORMAT_FLAG_COLORMAP) : 0)
        let ok: Int32
        if colormap {
            // 16 RGBA entries (some translucent: a tRNS chunk) and an index per pixel.
            var map = [UInt8](repeating: 0, count: 16 * 4)
            for i in 0..<64 { map[i] = i % 4 == 3 ? UInt8(i * 16 % 256) | 0x0F : next() }
            let indices = (0..<(width * height)).map { _ in next() % 16 }
            image.colormap_entries = 16
            ok = png_image_write_to_file(&image, path, 0, indices, png_int_32(width), map)
        } else {
            let count = width * height * channels
            if bytes == 2 {
                let samples = (0..<count).map { _ in UInt16(next()) << 8 | UInt16(next()) }
                ok = png_image_write_to_file(&image, path, 0, samples, png_int_32(width * channels), nil)
            } else {
                let samples = (0..<count).map { _ in next() }
                ok = png_image_write_to_file(&image, path, 0, samples, png_int_32(width * channels), nil)
            }
        }
        png_image_free(&image)
        #expect(ok != 0, "libpng could not write the test picture")
    }

    /// The rounded mean of each factor x factor box of `whole` (fewer pixels at the right and
    /// bottom edges): the reference the row reader must match byte for byte.
    func boxMeans(_ whole: PixelBuffer, factor: Int) -> PixelBuffer {
        let out = PixelBuffer(width: (whole.width + factor - 1) / factor, height: (whole.height + factor - 1) / factor)
        for oy in 0..<out.height {
            for ox in 0..<out.width {
                var sums = [UInt32](repeating: 0, count: 3)
                var count: UInt32 = 0
                for y in (oy * factor)..<min(whole.height, (oy + 1) * factor) {
                    for x in (ox * factor)..<min(whole.width, (ox + 1) * factor) {
                        let p = whole.surface.row(y)[x]
                        sums[0] += p >> 16 & 0xFF
                        sums[1] += p >> 8 & 0xFF
                        sums[2] += p & 0xFF
                        count += 1
                    }
                }
                let mean = sums.map { ($0 + count / 2) / count }
                out.surface.row(oy)[ox] = 0xFF00_0000 | mean[0] << 16 | mean[1] << 8 | mean[2]
            }
        }
        return out
    }

    // libpng's composite format macros do not reach Swift; these are their definitions.
    static let rgb = Int32(PNG_FORMAT_FLAG_COLOR)
    static let rgba = Int32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    static let grey: Int32 = 0
    static let greyAlpha = Int32(PNG_FORMAT_FLAG_ALPHA)
    static let linearRGB = Int32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_LINEAR)

    @Test(arguments: [
        ("rgb", rgb, 3, false), ("rgba", rgba, 4, false), ("grey", grey, 1, false),
        ("grey-alpha", greyAlpha, 2, false), ("palette-trns", rgba, 1, true),
    ])
    func aLargePNGIsShrunkAsItIsReadToTheWholeDecodesBoxMeans(
        name: String, format: Int32, channels: Int, colormap: Bool
    ) throws {
        let path = try temporaryFolder() + "/\(name).png"
        try writeTestPNG(path, width: 203, height: 151, format: format, channels: channels, colormap: colormap)
        let whole = try readPNG(path: path)
        #expect(whole.width == 203 && whole.height == 151)
        // 203 / 64 and 151 / 50 are both 3: shrunk by 3, to 68x51, still covering 64x50.
        let reduced = try readPNG(path: path, covering: (64, 50))
        #expect(reduced.width == 68 && reduced.height == 51)
        #expect(packedRows(reduced.surface) == packedRows(boxMeans(whole, factor: 3).surface), "\(name)")
        // Less than twice the size on one side: decoded whole.
        let notWorth = try readPNG(path: path, covering: (120, 60))
        #expect(notWorth.width == 203 && notWorth.height == 151)
    }

    @Test func sixteenBitPNGsAreDecodedWhole() throws {
        let path = try temporaryFolder() + "/deep.png"
        try writeTestPNG(path, width: 90, height: 70, format: Self.linearRGB, channels: 3, bytes: 2)
        let picture = try readPNG(path: path, covering: (20, 20))
        #expect(picture.width == 90 && picture.height == 70, "libpng's simplified API converts 16-bit data")
        #expect(packedRows(picture.surface) == packedRows(try readPNG(path: path).surface))
    }

    @Test func aTruncatedLargePNGFailsClearly() throws {
        let folder = try temporaryFolder()
        try writeTestPNG(folder + "/whole.png", width: 300, height: 200, format: Self.rgb, channels: 3)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.png"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: folder + "/cut.png"))
        do {
            _ = try readPNG(path: folder + "/cut.png", covering: (100, 60))
            Issue.record("decoded half a file")
        } catch {
            #expect(error.description.hasPrefix(folder + "/cut.png: PNG decoding failed"), "\(error)")
        }
    }

    /// `swell show --scale fill` of a poster much larger than the display: checked before the
    /// display is taken, decoded reduced once its size is known, then scaled the rest of the way.
    @Test func showScalesAHugePosterFromItsReducedDecode() throws {
        let folder = try temporaryFolder()
        try writeTestPNG(folder + "/poster.png", width: 400, height: 300, format: Self.rgb, channels: 3)
        let run = try SwellProcess.run([
            "show", folder + "/poster.png", "--scale", "fill", "--output", "memory", "--size", "64x40", "--save",
            folder + "/screen.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // min(400 / 64, 300 / 40) = 6: decoded at 67x50, then filled into 64x40.
        let reduced = try readPNG(path: folder + "/poster.png", covering: (64, 40))
        #expect(reduced.width == 67 && reduced.height == 50)
        let expected = PixelBuffer(width: 64, height: 40)
        scaleImageToFill(reduced.surface, into: expected.surface)
        #expect(try readPNG(path: folder + "/screen.png").packedBytes() == expected.packedBytes())
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: folder + "/bad.png"))
        let bad = try SwellProcess.run(["show", folder + "/bad.png", "--scale", "fill", "--output", "memory"])
        #expect(bad.status == 65 && bad.stderr.contains(folder + "/bad.png: not a readable PNG"), "\(bad.stderr)")
    }
}
