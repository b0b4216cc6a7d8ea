import SwellRaster
import Testing

/// The frame renderer keeps uniform rows virtual (a colour per row) until something other than
/// a full-width wave fill's covered rows touches them. These frames aim at that path; each
/// must give the bytes of the plain op-by-op `render(_:into:)` for any band height and thread count.
@Suite struct LazyRowsTests {
    static let configurations: [(threads: Int, bandHeight: Int?)] = [
        (1, nil), (1, 1), (1, 7), (2, nil), (2, 1), (3, 5),
    ]

    static func expectRendererMatchesPlainPipeline(_ frame: DisplayList, _ label: String) {
        FrameRendererTests.expectBandedMatchesPlain(frame, label, configurations: configurations)
    }

    static let background = Color(r: 0.04, g: 0.12, b: 0.24)

    static func fill(_ baseline: Double, _ amplitude: Double = 12, wavelength: Double = 90, phase: Double = 0.4)
        -> Shape
    {
        .waveFill(Wave(baseline: baseline, amplitude: amplitude, wavelength: wavelength, phase: phase))
    }

    @Test func fullPixelIsTheByteFullSpanWritesOnEveryPixel() {
        var random = SeededRandom(seed: 31)
        let width = 53  // three SIMD groups and a scalar tail
        for trial in 0..<400 {
            let alpha: Double = trial % 5 == 0 ? 1 : (trial % 7 == 0 ? 0 : random.uniform(0...1))
            let source = SourceColor(
                Color(r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1), a: alpha))
            let blender = WaveBlender(source)
            let buffer = PixelBuffer(width: width, height: 1)
            var before = [UInt32]()
            for x in 0..<width {
                // Every channel value appears over the trials, alpha bytes included.
                let pixel = UInt32.random(in: 0...UInt32.max, using: &random)
                buffer.surface.row(0)[x] = pixel
                before.append(pixel)
            }
            blender.fullSpan(buffer.surface.row(0), from: 0, to: width)
            for x in 0..<width {
                #expect(blender.fullPixel(over: before[x]) == buffer.surface.row(0)[x], "alpha \(alpha), pixel \(x)")
            }
        }
    }

    @Test func stackedFullWidthFillsUnderOpaqueAndTranslucentAlpha() {
        for alphas in [[0.5, 0.5, 0.5, 0.6], [1, 0.3, 1, 0.7], [1, 1, 1, 1], [0.02, 0.98, 0.004, 0.5]] {
            let commands = alphas.enumerated().map { index, alpha in
                DrawCommand(
                    Self.fill(30 + Double(index) * 14, 10 - Double(index) * 2, wavelength: 70 + Double(index) * 25),
                    color: Color(r: 0.9 - Double(index) * 0.2, g: 0.3 + Double(index) * 0.1, b: 0.25, a: alpha))
            }
            Self.expectRendererMatchesPlainPipeline(
                DisplayList(width: 150, height: 97, background: Self.background, shapes: commands), "alphas \(alphas)")
        }
    }

    @Test func fillsWithAndWithoutClips() {
        let clips: [ClipRect?] = [
            nil,
            ClipRect(x0: 0, y0: 20, x1: 150, y1: 70),  // full width, some rows
            ClipRect(x0: -40, y0: -10, x1: 400, y1: 50),  // full width, beyond the frame
            ClipRect(x0: 0, y0: 0, x1: 149, y1: 97),  // one column short
            ClipRect(x0: 1, y0: 0, x1: 150, y1: 97),
            ClipRect(x0: 30, y0: 40, x1: 90, y1: 80),
            ClipRect(x0: 0, y0: 200, x1: 150, y1: 300),  // below the frame: draws nothing
        ]
        for clip in clips {
            let commands = [
                DrawCommand(Self.fill(35), color: Color(r: 1, g: 0.6, b: 0.2, a: 0.5)),
                DrawCommand(Self.fill(50, 8), color: Color(r: 0.2, g: 0.5, b: 1, a: 0.5), clip: clip),
                DrawCommand(Self.fill(62, 5, wavelength: 31), color: Color(r: 0.1, g: 0.3, b: 0.8, a: 1), clip: clip),
                DrawCommand(Self.fill(75, 3), color: Color(r: 0.7, g: 0.7, b: 0.1, a: 0.6)),
            ]
            Self.expectRendererMatchesPlainPipeline(
                DisplayList(width: 150, height: 97, background: Self.background, shapes: commands),
                "clip \(String(describing: clip))")
        }
    }

    /// The strip page's case: a translucent fill whose covered rows and groups lie under the
    /// curve rows of a later opaque full-width fill, over rows already written (pixels that
    /// differ across the row: a fill clipped one column short, a stroke). The earlier fill leaves
    /// the groups the opaque one covers alone (`HiddenGroups`); every other pixel must still be
    /// blended. Widths a multiple of the 16-column group and not; the opaque fill's own clip
    /// ending inside its curve rows; a translucent fill after the opaque one (nothing hidden).
    @Test func translucentFillUnderTheCurveRowsOfALaterOpaqueFill() {
        let stroke = Shape.waveStroke(
            WaveStroke(
                wave: Wave(baseline: 60, amplitude: 9, wavelength: 40, phase: 2), envelope: .none, width: 5,
                length: 400))
        for width in [160, 150, 320] {
            for frontClip in [nil, ClipRect(x0: -5, y0: 0, x1: 400, y1: 71)] {
                let commands = [
                    DrawCommand(
                        Self.fill(20, 4), color: Color(r: 0.3, g: 0.8, b: 0.4, a: 0.8),
                        clip: ClipRect(x0: 0, y0: 0, x1: width - 1, y1: 97)),
                    DrawCommand(stroke, color: Color(r: 1, g: 1, b: 1, a: 0.6)),
                    DrawCommand(Self.fill(50, 14, wavelength: 150), color: Color(r: 1, g: 0.58, b: 0, a: 0.5)),
                    DrawCommand(
                        Self.fill(62, 14, wavelength: 150, phase: 2), color: Color(r: 1, g: 0.23, b: 0.19, a: 1),
                        clip: frontClip),
                    DrawCommand(Self.fill(85, 2), color: Color(r: 0.1, g: 0.2, b: 0.9, a: 0.4)),
                ]
                Self.expectRendererMatchesPlainPipeline(
                    DisplayList(width: width, height: 97, background: Self.background, shapes: commands),
                    "width \(width), front clip \(String(describing: frontClip))")
            }
        }
    }

    @Test func fillsAfterStrokesRingsAndDiscs() {
        let stroke = Shape.waveStroke(
            WaveStroke(
                wave: Wave(baseline: 55, amplitude: 20, wavelength: 120, phase: 1), envelope: .parabola, width: 4,
                length: 150))
        let commands = [
            DrawCommand(Self.fill(40), color: Color(r: 1, g: 0.6, b: 0.2, a: 0.5)),
            DrawCommand(stroke, color: Color(r: 1, g: 1, b: 1, a: 0.7)),
            DrawCommand(
                .ring(Ring(centerX: 70, centerY: 80, radius: 12, width: 3)), color: Color(r: 0, g: 1, b: 0, a: 0.8)),
            DrawCommand(.disc(Disc(centerX: 20, centerY: 10, radius: 8)), color: Color(r: 1, g: 0, b: 1, a: 0.4)),
            DrawCommand(Self.fill(30, 6), color: Color(r: 0.2, g: 0.5, b: 1, a: 0.5)),
            DrawCommand(.disc(Disc(centerX: 120, centerY: 90, radius: 5)), color: Color(r: 1, g: 1, b: 0, a: 1)),
            DrawCommand(Self.fill(50, 4), color: Color(r: 0.1, g: 0.3, b: 0.8, a: 1)),
            DrawCommand(stroke, color: Color(r: 0, g: 0, b: 0, a: 0.3)),
        ]
        Self.expectRendererMatchesPlainPipeline(
            DisplayList(width: 150, height: 97, background: Self.background, shapes: commands), "mixed")
    }

    @Test func fillsPartlyOrWhollyOutsideTheFrame() {
        let shapes: [Shape] = [
            Self.fill(-5, 3),  // every row full
            Self.fill(-30, 40),  // curve crosses the top edge
            Self.fill(90, 20),  // curve crosses the bottom edge
            Self.fill(500, 3),  // below the frame
            Self.fill(40, 2e7),  // amplitude beyond the clamp: every column spans the frame
            Self.fill(1e300, 1),  // far below: no curve rows at all
            Self.fill(-1e300, 1),  // far above: all rows full
            Self.fill(40, 5, wavelength: .nan),  // degenerate: draws nothing
            Self.fill(40, 5, wavelength: 0.3),  // shorter than a pixel
        ]
        for shape in shapes {
            let commands = [
                DrawCommand(Self.fill(60), color: Color(r: 1, g: 0.6, b: 0.2, a: 0.5)),
                DrawCommand(shape, color: Color(r: 0.3, g: 0.9, b: 0.5, a: 0.55)),
                DrawCommand(shape, color: Color(r: 0.9, g: 0.1, b: 0.5, a: 1)),
            ]
            Self.expectRendererMatchesPlainPipeline(
                DisplayList(width: 150, height: 97, background: Self.background, shapes: commands), "\(shape)")
        }
    }

    @Test func tinyFrames() {
        for (width, height) in [(1, 1), (2, 1), (1, 3), (3, 2), (17, 5), (16, 16), (33, 2)] {
            let commands = [
                DrawCommand(
                    Self.fill(Double(height) / 2, 1, wavelength: 7), color: Color(r: 1, g: 0.6, b: 0.2, a: 0.5)),
                DrawCommand(
                    Self.fill(Double(height) / 3, 0.5, wavelength: 3), color: Color(r: 0.2, g: 0.5, b: 1, a: 1)),
                DrawCommand(
                    .disc(Disc(centerX: 0.5, centerY: 0.5, radius: 0.7)), color: Color(r: 1, g: 1, b: 1, a: 0.5)),
                DrawCommand(Self.fill(-1, 0.2), color: Color(r: 0.1, g: 0.9, b: 0.3, a: 0.3)),
            ]
            Self.expectRendererMatchesPlainPipeline(
                DisplayList(width: width, height: height, background: Self.background, shapes: commands),
                "\(width)x\(height)")
        }
    }

    @Test func randomFramesOfMixedCommands() {
        var random = SeededRandom(seed: 2026)
        let width = 71
        let height = 53
        for trial in 0..<40 {
            var commands: [DrawCommand] = []
            for _ in 0..<Int.random(in: 1...9, using: &random) {
                let alpha: Double = Bool.random(using: &random) ? 1 : random.uniform(0.05...1)
                let color = Color(
                    r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1), a: alpha)
                let wave = Wave(
                    baseline: random.uniform(-20...70), amplitude: random.uniform(-25...25),
                    wavelength: random.uniform(3...300), phase: random.uniform(-7...7))
                let shape: Shape
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    shape = .ring(
                        Ring(
                            centerX: random.uniform(-10...80), centerY: random.uniform(-10...60),
                            radius: random.uniform(0...30), width: random.uniform(0.5...6)))
                case 1:
                    shape = .disc(
                        Disc(
                            centerX: random.uniform(-10...80), centerY: random.uniform(-10...60),
                            radius: random.uniform(0...30)))
                case 2:
                    shape = .waveStroke(
                        WaveStroke(wave: wave, envelope: .none, width: random.uniform(0.3...6), length: Double(width)))
                default: shape = .waveFill(wave)
                }
                var clip: ClipRect? = nil
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    clip = ClipRect(
                        x0: 0, y0: Int.random(in: -5...40, using: &random), x1: width,
                        y1: Int.random(in: 10...60, using: &random))
                case 1:
                    clip = ClipRect(
                        x0: Int.random(in: -5...30, using: &random), y0: Int.random(in: -5...40, using: &random),
                        x1: Int.random(in: 20...80, using: &random), y1: Int.random(in: 10...60, using: &random))
                default: break
                }
                commands.append(DrawCommand(shape, color: color, clip: clip))
            }
            Self.expectRendererMatchesPlainPipeline(
                DisplayList(width: width, height: height, background: Self.background, shapes: commands),
                "random frame \(trial)")
        }
    }

    @Test func oneRendererAcrossFramesOfChangingSize() {
        // The row storage grows once; smaller frames after a larger one reuse it.
        let renderer = FrameRenderer(threads: 1, bandHeight: 9)
        for (width, height) in [(20, 10), (40, 70), (30, 25), (40, 71)] {
            let frame = DisplayList(
                width: width, height: height, background: Self.background,
                shapes: [
                    DrawCommand(
                        Self.fill(Double(height) / 2, 4, wavelength: 25), color: Color(r: 1, g: 0.6, b: 0.2, a: 0.5)),
                    DrawCommand(.disc(Disc(centerX: 10, centerY: Double(height) - 4, radius: 3)), color: .white),
                ])
            let plain = PixelBuffer(width: width, height: height)
            render(frame, into: plain.surface)
            let banded = PixelBuffer(width: width, height: height)
            renderer.render(frame, into: banded.surface, tracksDamage: false)
            #expect(
                FrameRendererTests.packed(banded.surface) == FrameRendererTests.packed(plain.surface),
                "\(width)x\(height)")
        }
    }
}
