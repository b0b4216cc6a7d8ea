import CJPEG
import Foundation
import SwellOutput
import SwellRaster
import Testing

/// Writes `picture` as a JPEG (quality 95, libjpeg's encoder) with EXIF orientation
/// `orientation` (0: none), for the tests that read JPEGs.
func writeJPEG(_ picture: PixelBuffer, to path: String, orientation: Int32 = 0) {
    var status = swell_jpeg_image()
    let result = swell_jpeg_write(
        path, picture.surface.base, picture.stride, Int32(picture.width), Int32(picture.height), 95, orientation,
        &status)
    #expect(result == 0)
}

/// Reading JPEG photographs: colours and channel order against the original pixels (through
/// libjpeg's own encoder at quality 95), EXIF orientation against the tag's meaning, and strict
/// errors for cut-short and foreign files.
@Suite struct JPEGTests {
    func channels(_ pixel: UInt32) -> [Int] { [Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF)] }

    @Test func aJPEGReadsBackCloseToItsOriginalPixels() throws {
        // Red grows to the right, blue downwards, green along the diagonal: swapped channels or
        // a wrong stride would be off by far more than the codec's error.
        let original = PixelBuffer(width: 67, height: 45)
        for y in 0..<45 {
            for x in 0..<67 {
                original.surface.row(y)[x] =
                    0xFF00_0000 | UInt32(x * 255 / 66) << 16 | UInt32((x + y) * 255 / 110) << 8 | UInt32(y * 255 / 44)
            }
        }
        let path = try temporaryFolder() + "/gradient.jpg"
        writeJPEG(original, to: path)
        #expect(try readJPEGSize(path: path) == (67, 45))
        let back = try readPicture(path: path)
        #expect(back.width == 67 && back.height == 45)
        var total = 0
        var largest = 0
        for y in 0..<45 {
            for x in 0..<67 {
                #expect(back.surface.row(y)[x] >> 24 == 0xFF)
                for (a, b) in zip(channels(back.surface.row(y)[x]), channels(original.surface.row(y)[x])) {
                    total += abs(a - b)
                    largest = max(largest, abs(a - b))
                }
            }
        }
        let mean = Double(total) / Double(67 * 45 * 3)
        #expect(mean < 2 && largest < 16, "mean \(mean), largest \(largest)")
    }

    /// Six blocks of 16x16 in a 48x32 picture; each EXIF orientation must show the stored corner
    /// blocks where the tag's definition puts them (row 0 / column 0 of the stored picture).
    @Test(arguments: 1...8)
    func exifOrientationTurnsThePictureUpright(_ orientation: Int) throws {
        let colours: [[UInt32]] = [[0xE02020, 0x20E020, 0x2020E0], [0xE0E020, 0x20E0E0, 0xE020E0]]
        let stored = PixelBuffer(width: 48, height: 32)
        for y in 0..<32 {
            for x in 0..<48 { stored.surface.row(y)[x] = 0xFF00_0000 | colours[y / 16][x / 16] }
        }
        let path = try temporaryFolder() + "/turned.jpg"
        writeJPEG(stored, to: path, orientation: Int32(orientation))
        let shown = try readJPEG(path: path)
        let sideways = orientation >= 5
        #expect(shown.width == (sideways ? 32 : 48) && shown.height == (sideways ? 48 : 32))
        #expect(try readJPEGSize(path: path) == (shown.width, shown.height))
        // Which stored corner shows at the shown top-left, top-right and bottom-left (EXIF 2.3, 4.6.4).
        let tl = colours[0][0]
        let tr = colours[0][2]
        let bl = colours[1][0]
        let br = colours[1][2]
        let corners: [Int: (UInt32, UInt32, UInt32)] = [
            1: (tl, tr, bl), 2: (tr, tl, br), 3: (br, bl, tr), 4: (bl, br, tl),
            5: (tl, bl, tr), 6: (bl, tl, br), 7: (br, tr, bl), 8: (tr, br, tl),
        ]
        let (topLeft, topRight, bottomLeft) = corners[orientation]!
        func near(_ pixel: UInt32, _ colour: UInt32) -> Bool {
            zip(channels(pixel), channels(colour)).allSatisfy { abs($0 - $1) <= 12 }
        }
        let w = shown.width
        let h = shown.height
        #expect(near(shown.surface.row(3)[3], topLeft), "top left")
        #expect(near(shown.surface.row(3)[w - 4], topRight), "top right")
        #expect(near(shown.surface.row(h - 4)[3], bottomLeft), "bottom left")
    }

    /// A JPEG much larger than the screen is decoded reduced in its DCT, as far as it still covers
    /// the screen (upright sizes), and shrinks to the same picture as a whole decode would.
    @Test(arguments: [1, 6])
    func aLargeJPEGIsDecodedReducedButStillCoveringTheScreen(_ orientation: Int) throws {
        let (w, h) = orientation == 6 ? (600, 1000) : (1000, 600)
        let stored = PixelBuffer(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                stored.surface.row(y)[x] =
                    0xFF00_0000 | UInt32(x * 255 / (w - 1)) << 16 | UInt32((x + y) * 255 / (w + h - 2)) << 8
                    | UInt32(y * 255 / (h - 1))
            }
        }
        let path = try temporaryFolder() + "/large.jpg"
        writeJPEG(stored, to: path, orientation: Int32(orientation))
        let whole = try readJPEG(path: path)
        #expect(whole.width == 1000 && whole.height == 600)
        for (screen, expected) in [
            ((240, 140), (250, 150)), ((300, 200), (500, 300)), ((500, 150), (500, 300)), ((600, 400), (1000, 600)),
        ] {
            let reduced = try readPicture(path: path, covering: screen)
            #expect((reduced.width, reduced.height) == expected, "covering \(screen)")
            let fromWhole = PixelBuffer(width: screen.0, height: screen.1)
            let fromReduced = PixelBuffer(width: screen.0, height: screen.1)
            scaleImageToFill(whole.surface, into: fromWhole.surface)
            scaleImageToFill(reduced.surface, into: fromReduced.surface)
            var total = 0
            var largest = 0
            for y in 0..<screen.1 {
                for x in 0..<screen.0 {
                    for (a, b) in zip(channels(fromWhole.surface.row(y)[x]), channels(fromReduced.surface.row(y)[x])) {
                        total += abs(a - b)
                        largest = max(largest, abs(a - b))
                    }
                }
            }
            let mean = Double(total) / Double(screen.0 * screen.1 * 3)
            #expect(mean < 1 && largest <= 8, "covering \(screen): mean \(mean), largest \(largest)")
        }
    }

    @Test func aCutShortOrForeignJPEGIsAnErrorNotAGreyPicture() throws {
        let folder = try temporaryFolder()
        let noise = PixelBuffer(width: 64, height: 48)
        var state: UInt32 = 12345
        for y in 0..<48 {
            for x in 0..<64 {
                state = state &* 1_664_525 &+ 1_013_904_223
                noise.surface.row(y)[x] = 0xFF00_0000 | state >> 8
            }
        }
        writeJPEG(noise, to: folder + "/whole.jpg")
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.jpg"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/cut.jpg"))
        #expect(try readJPEGSize(path: folder + "/cut.jpg") == (64, 48), "its header is whole")
        do {
            _ = try readJPEG(path: folder + "/cut.jpg")
            Issue.record("decoded a JPEG cut in half")
        } catch {
            #expect(error.description.hasPrefix(folder + "/cut.jpg: JPEG decoding failed: Premature end"), "\(error)")
        }
        try Data("not a jpeg".utf8).write(to: URL(fileURLWithPath: folder + "/text.jpg"))
        do {
            _ = try readPicture(path: folder + "/text.jpg")
            Issue.record("read text as a JPEG")
        } catch {
            #expect(!error.isMissingInput)
            #expect(error.description.hasPrefix(folder + "/text.jpg: not a readable JPEG"), "\(error)")
        }
        do {
            _ = try readPicture(path: folder + "/missing.jpeg")
            Issue.record("read a missing file")
        } catch {
            #expect(error.isMissingInput)
        }
    }
}
