import SwellRaster
import Testing

/// The YUV 4:2:0 → XRGB kernels against exact `Double` references written here from the BT.601 and
/// BT.709 equations (not from YUVMatrix's coefficients): random planes of odd and even sizes with
/// random strides, clips and placements that cut the surface, all four matrices.
@Suite struct YUVConvertTests {
    /// A random picture whose planes are exactly as long as their last row needs (no slack after
    /// it), with strides of random padding.
    struct Picture {
        let width: Int
        let height: Int
        let strides: [Int]
        let planes: [[UInt8]]

        init(width: Int, height: Int, strides: [Int], planes: [[UInt8]]) {
            self.width = width
            self.height = height
            self.strides = strides
            self.planes = planes
        }

        init(width: Int, height: Int, _ random: inout SeededRandom) {
            self.width = width
            self.height = height
            let sizes = [(width, height), ((width + 1) / 2, (height + 1) / 2), ((width + 1) / 2, (height + 1) / 2)]
            strides = sizes.map { $0.0 + Int(random.next() % 3 == 0 ? 0 : random.next() % 40) }
            planes = zip(sizes, strides).map { size, stride in
                (0..<stride * (size.1 - 1) + size.0).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
        }

        func sample(_ plane: Int, _ x: Int, _ y: Int) -> Double { Double(planes[plane][y * strides[plane] + x]) }

        func withPlanes<R>(_ body: (YUVPlanes) -> R) -> R {
            planes[0].withUnsafeBufferPointer { y in
                planes[1].withUnsafeBufferPointer { u in
                    planes[2].withUnsafeBufferPointer { v in
                        body(
                            YUVPlanes(
                                y: y.baseAddress!, yStride: strides[0], u: u.baseAddress!, uStride: strides[1],
                                v: v.baseAddress!, vStride: strides[2], width: width, height: height))
                    }
                }
            }
        }
    }

    static let matrices: [(bt709: Bool, full: Bool)] = [(false, false), (false, true), (true, false), (true, true)]
    static let untouched: UInt32 = 0x1234_5678

    /// The equations in `Double`, rounded half up and clamped: [R, G, B].
    static func reference(_ y: Double, _ u: Double, _ v: Double, bt709: Bool, full: Bool) -> [Int] {
        let kr = bt709 ? 0.2126 : 0.299
        let kb = bt709 ? 0.0722 : 0.114
        let kg = 1 - kr - kb
        let luma = full ? y : (y - 16) * 255 / 219
        let cb = full ? u - 128 : (u - 128) * 255 / 224
        let cr = full ? v - 128 : (v - 128) * 255 / 224
        let r = luma + 2 * (1 - kr) * cr
        let g = luma - 2 * kb * (1 - kb) / kg * cb - 2 * kr * (1 - kr) / kg * cr
        let b = luma + 2 * (1 - kb) * cb
        return [r, g, b].map { min(255, max(0, Int(($0 + 0.5).rounded(.down)))) }
    }

    static func channels(_ pixel: UInt32) -> [Int] { [16, 8, 0].map { Int((pixel >> UInt32($0)) & 0xFF) } }

    static func blank(_ width: Int, _ height: Int) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height { buffer.surface.row(y).update(repeating: untouched, count: width) }
        return buffer
    }

    static func randomRect(in width: Int, _ height: Int, _ random: inout SeededRandom) -> ClipRect {
        let x0 = Int(random.next() % UInt64(width))
        let y0 = Int(random.next() % UInt64(height))
        return ClipRect(
            x0: x0, y0: y0, x1: x0 + 1 + Int(random.next() % UInt64(width - x0)),
            y1: y0 + 1 + Int(random.next() % UInt64(height - y0)))
    }

    static let sizes = [
        (1, 1), (1, 2), (2, 1), (2, 2), (3, 3), (5, 2), (15, 3), (16, 2), (17, 5), (31, 4), (32, 7), (33, 9),
        (47, 12), (64, 48), (99, 70), (100, 70),
    ]

    @Test func nativeSizeMatchesTheEquations() {
        var random = SeededRandom(seed: 420)
        var worst = 0
        for (case_, (width, height)) in Self.sizes.enumerated() {
            let picture = Picture(width: width, height: height, &random)
            // The surface a little smaller or larger than the picture; the clip random inside it,
            // or the whole surface every fourth case (vector steps from column 0).
            let surfaceWidth = max(1, width + Int(random.next() % 9) - 4)
            let surfaceHeight = max(1, height + Int(random.next() % 7) - 3)
            let clip =
                case_ % 4 == 0
                ? ClipRect(x0: 0, y0: 0, x1: surfaceWidth, y1: surfaceHeight)
                : Self.randomRect(in: surfaceWidth, surfaceHeight, &random)
            for matrix in Self.matrices {
                let buffer = Self.blank(surfaceWidth, surfaceHeight)
                picture.withPlanes {
                    convertYUV420(
                        $0, YUVMatrix(bt709: matrix.bt709, fullRange: matrix.full), into: buffer.surface, clip: clip)
                }
                for y in 0..<surfaceHeight {
                    for x in 0..<surfaceWidth {
                        let pixel = buffer.surface.pixel(x: x, y: y)
                        let inside =
                            x >= clip.x0 && x < clip.x1 && y >= clip.y0 && y < clip.y1 && x < width && y < height
                        guard inside else {
                            #expect(pixel == Self.untouched, "\(width)x\(height) (\(x), \(y)) outside was written")
                            continue
                        }
                        let expected = Self.reference(
                            picture.sample(0, x, y), picture.sample(1, x / 2, y / 2), picture.sample(2, x / 2, y / 2),
                            bt709: matrix.bt709, full: matrix.full)
                        let got = Self.channels(pixel)
                        #expect(pixel >> 24 == 0xFF)
                        for c in 0..<3 {
                            worst = max(worst, abs(got[c] - expected[c]))
                            #expect(abs(got[c] - expected[c]) <= 1, "\(width)x\(height) (\(x), \(y)) \(matrix) \(c)")
                        }
                    }
                }
            }
        }
        #expect(worst == 1)  // the rounding differs near ties (ties to even in Float), never more
    }

    @Test func knownColours() {
        // Limited-range black and white, and full-range extremes, exactly.
        let cases: [(y: UInt8, u: UInt8, v: UInt8, bt709: Bool, full: Bool, pixel: UInt32)] = [
            (16, 128, 128, false, false, 0xFF00_0000), (235, 128, 128, false, false, 0xFFFF_FFFF),
            (16, 128, 128, true, false, 0xFF00_0000), (235, 128, 128, true, false, 0xFFFF_FFFF),
            (0, 128, 128, false, true, 0xFF00_0000), (255, 128, 128, true, true, 0xFFFF_FFFF),
            (0, 0, 0, false, false, 0xFF00_8800),  // below black: red and blue clamp to 0
        ]
        for c in cases {
            var y = c.y
            var u = c.u
            var v = c.v
            let buffer = Self.blank(1, 1)
            let planes = YUVPlanes(y: &y, yStride: 1, u: &u, uStride: 1, v: &v, vStride: 1, width: 1, height: 1)
            convertYUV420(
                planes, YUVMatrix(bt709: c.bt709, fullRange: c.full), into: buffer.surface, clip: buffer.surface.bounds)
            #expect(buffer.surface.pixel(x: 0, y: 0) == c.pixel, "\(c)")
        }
    }

    /// One plane sampled bilinearly at position p along each axis, clamped to low...high, as
    /// `convertYUV420Scaled` documents it.
    static func bilinear(_ position: Double, _ low: Int, _ high: Int) -> (Int, Int, Double) {
        let p = min(max(position, Double(low)), Double(high))
        let first = Int(p.rounded(.down))
        return (first, min(first + 1, high), p - Double(first))
    }

    static func scaledReference(
        _ picture: Picture, crop: ClipRect, place: ClipRect, x: Int, y: Int, bt709: Bool, full: Bool
    ) -> [Int] {
        let scaleX = Double(crop.x1 - crop.x0) / Double(place.x1 - place.x0)
        let scaleY = Double(crop.y1 - crop.y0) / Double(place.y1 - place.y0)
        let px = Double(crop.x0) + (Double(x - place.x0) + 0.5) * scaleX - 0.5
        let py = Double(crop.y0) + (Double(y - place.y0) + 0.5) * scaleY - 0.5
        func value(_ plane: Int, _ px: Double, _ py: Double, _ xs: (Int, Int), _ ys: (Int, Int)) -> Double {
            let (x0, x1, tx) = bilinear(px, xs.0, xs.1)
            let (y0, y1, ty) = bilinear(py, ys.0, ys.1)
            let top = picture.sample(plane, x0, y0) * (1 - tx) + picture.sample(plane, x1, y0) * tx
            let bottom = picture.sample(plane, x0, y1) * (1 - tx) + picture.sample(plane, x1, y1) * tx
            return top * (1 - ty) + bottom * ty
        }
        let lumaX = (crop.x0, crop.x1 - 1)
        let lumaY = (crop.y0, crop.y1 - 1)
        let chromaX = (crop.x0 / 2, (crop.x1 - 1) / 2)
        let chromaY = (crop.y0 / 2, (crop.y1 - 1) / 2)
        let cx = (px - 0.5) / 2
        let cy = (py - 0.5) / 2
        return reference(
            value(0, px, py, lumaX, lumaY), value(1, cx, cy, chromaX, chromaY), value(2, cx, cy, chromaX, chromaY),
            bt709: bt709, full: full)
    }

    @Test func scaledMatchesABilinearReference() {
        var random = SeededRandom(seed: 709)
        var worst = 0
        // Every other case through one scratch, reused across sizes (it only grows).
        let scratch = YUVScaleScratch()
        for (case_, (width, height)) in Self.sizes.enumerated() {
            let picture = Picture(width: width, height: height, &random)
            let crop =
                case_ % 3 == 0
                ? ClipRect(x0: 0, y0: 0, x1: width, y1: height) : Self.randomRect(in: width, height, &random)
            // Scales from about a third to about three times, different across and down; the
            // placement may stick out of the surface on any side.
            let placeWidth = max(1, Int(Double(crop.x1 - crop.x0) * random.uniform(0.3...3.2)))
            let placeHeight = max(1, Int(Double(crop.y1 - crop.y0) * random.uniform(0.3...3.2)))
            let surfaceWidth = max(1, placeWidth + Int(random.next() % 11) - 5)
            let surfaceHeight = max(1, placeHeight + Int(random.next() % 11) - 5)
            let left = Int(random.next() % 9) - 4
            let top = Int(random.next() % 9) - 4
            let place = ClipRect(x0: left, y0: top, x1: left + placeWidth, y1: top + placeHeight)
            for matrix in Self.matrices {
                let buffer = Self.blank(surfaceWidth, surfaceHeight)
                picture.withPlanes {
                    convertYUV420Scaled(
                        $0, YUVMatrix(bt709: matrix.bt709, fullRange: matrix.full), crop: crop, into: buffer.surface,
                        place: place, scratch: case_ % 2 == 0 ? scratch : nil)
                }
                for y in 0..<surfaceHeight {
                    for x in 0..<surfaceWidth {
                        let pixel = buffer.surface.pixel(x: x, y: y)
                        guard x >= place.x0 && x < place.x1 && y >= place.y0 && y < place.y1 else {
                            #expect(pixel == Self.untouched, "(\(x), \(y)) outside \(place) was written")
                            continue
                        }
                        let expected = Self.scaledReference(
                            picture, crop: crop, place: place, x: x, y: y, bt709: matrix.bt709, full: matrix.full)
                        let got = Self.channels(pixel)
                        #expect(pixel >> 24 == 0xFF)
                        for c in 0..<3 {
                            worst = max(worst, abs(got[c] - expected[c]))
                            #expect(
                                abs(got[c] - expected[c]) <= 1,
                                "\(width)x\(height) crop \(crop) place \(place) (\(x), \(y)) \(matrix) \(c)")
                        }
                    }
                }
            }
        }
        #expect(worst == 1)
    }

    @Test func scaledAtOwnSizeWithUniformChromaIsTheNativeConversion() {
        // With chroma constant in each 2×2 block's neighbourhood the filters agree exactly; here,
        // constant chroma planes, so both kernels must give identical bytes.
        var random = SeededRandom(seed: 11)
        var picture = Picture(width: 37, height: 21, &random)
        picture = Picture(
            width: 37, height: 21, strides: picture.strides,
            planes: [picture.planes[0], picture.planes[1].map { _ in 90 }, picture.planes[2].map { _ in 200 }])
        let native = Self.blank(37, 21)
        let scaled = Self.blank(37, 21)
        picture.withPlanes {
            convertYUV420($0, .bt709Limited, into: native.surface, clip: native.surface.bounds)
            convertYUV420Scaled($0, .bt709Limited, crop: $0.bounds, into: scaled.surface, place: scaled.surface.bounds)
        }
        #expect(native.packedBytes() == scaled.packedBytes())
    }
}
