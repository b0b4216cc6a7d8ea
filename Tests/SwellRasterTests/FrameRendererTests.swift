import SwellDrawList
import SwellRaster
import Testing

func benchDataPath(_ name: String) -> String {
    let here = #filePath
    return String(here[..<here.firstRange(of: "/Tests/")!.lowerBound]) + "/bench-data/\(name).json"
}

/// The banded, multi-threaded renderer must give exactly the bytes of the plain op-by-op
/// pipeline, for every band height and thread count: this also proves each kernel's output
/// does not depend on how its clip rectangle cuts the frame.
@Suite struct FrameRendererTests {
    /// Where two pixel arrays first differ (nil when equal), so a failure prints one pixel, not
    /// two million.
    static func firstDifference(_ a: [UInt32], _ b: [UInt32], width: Int) -> String? {
        guard a != b else { return nil }
        guard a.count == b.count else { return "sizes differ: \(a.count) and \(b.count) pixels" }
        let index = a.indices.first { a[$0] != b[$0] }!
        return
            "first difference at (\(index % width), \(index / width)): \(String(a[index], radix: 16)) vs \(String(b[index], radix: 16))"
    }

    /// `command` drawn whole and drawn clipped to the four tiles cut at (xCut, yCut), each over
    /// `background` (or the zeroed buffer): the whole drawing's pixels and where the tiled one
    /// first differs from it.
    static func tiledDifference(
        _ command: DrawCommand, width: Int, height: Int, xCut: Int, yCut: Int, background: Color? = nil
    ) -> (whole: [UInt32], difference: String?) {
        let whole = PixelBuffer(width: width, height: height)
        let tiled = PixelBuffer(width: width, height: height)
        if let background {
            for buffer in [whole, tiled] { clear(buffer.surface, color: background, clip: buffer.surface.bounds) }
        }
        draw(command, on: whole.surface, within: whole.surface.bounds)
        for tile in [
            ClipRect(x0: 0, y0: 0, x1: xCut, y1: yCut), ClipRect(x0: xCut, y0: 0, x1: width, y1: yCut),
            ClipRect(x0: 0, y0: yCut, x1: xCut, y1: height), ClipRect(x0: xCut, y0: yCut, x1: width, y1: height),
        ] {
            draw(command, on: tiled.surface, within: tile)
        }
        let wholePixels = packed(whole.surface)
        return (wholePixels, firstDifference(packed(tiled.surface), wholePixels, width: width))
    }

    static func packed(_ surface: PixelSurface) -> [UInt32] {
        var pixels = [UInt32]()
        pixels.reserveCapacity(surface.width * surface.height)
        for y in 0..<surface.height {
            for x in 0..<surface.width { pixels.append(surface.row(y)[x]) }
        }
        return pixels
    }

    /// Renders `frame` with the plain pipeline and with `FrameRenderer` in each configuration (nil:
    /// the default band height), expecting the same bytes from each; returns the plain pixels.
    @discardableResult
    static func expectBandedMatchesPlain(
        _ frame: DisplayList, _ label: String, configurations: [(threads: Int, bandHeight: Int?)]
    ) -> [UInt32] {
        let plain = PixelBuffer(width: frame.width, height: frame.height)
        render(frame, into: plain.surface)
        let expected = packed(plain.surface)
        for (threads, bandHeight) in configurations {
            let banded = PixelBuffer(width: frame.width, height: frame.height)
            FrameRenderer(threads: threads, bandHeight: bandHeight).render(
                frame, into: banded.surface, tracksDamage: false)
            let difference = firstDifference(packed(banded.surface), expected, width: frame.width)
            #expect(
                difference == nil,
                "\(label): \(threads) threads, bands of \(bandHeight.map(String.init) ?? "default"): \(difference ?? "")"
            )
        }
        return expected
    }

    @Test(arguments: ["ripples-60", "ripples-1000", "waves", "text-page"])
    func bandsAndThreadsGiveThePlainPipelinesBytes(list: String) throws {
        let frame = try loadDrawList(path: benchDataPath(list))
        Self.expectBandedMatchesPlain(
            frame, list, configurations: [(1, 64), (2, 64), (3, 17), (1, 1), (2, 1080), (2, nil), (3, nil)])
    }

    /// The helper threads (`WorkerPool`): frames one after another on 2–4 threads each give the
    /// plain pipeline's bytes (a helper still drawing when `render` returns, or a band drawn
    /// twice or never, would show), and renderers dropped one after another stop and join their
    /// threads (a hang here is a helper that missed its shutdown).
    @Test func helperThreadsDrawEveryFrameAndStopWithTheirRenderer() throws {
        let frames = try ["waves", "ripples-60"].map { try loadDrawList(path: benchDataPath($0)) }
        let expected = frames.map { frame in
            let plain = PixelBuffer(width: frame.width, height: frame.height)
            render(frame, into: plain.surface)
            return Self.packed(plain.surface)
        }
        let banded = PixelBuffer(width: frames[0].width, height: frames[0].height)
        for round in 0..<12 {
            let threads = 2 + round % 3
            let renderer = FrameRenderer(threads: threads)
            for step in 0..<6 {
                let which = (round + step) % frames.count
                renderer.render(frames[which], into: banded.surface, tracksDamage: false)
                let difference = Self.firstDifference(
                    Self.packed(banded.surface), expected[which], width: banded.surface.width)
                #expect(difference == nil, "round \(round), \(threads) threads, frame \(step): \(difference ?? "")")
            }
        }
    }

    /// The default band heights: frames with waves keep bands of at least 96 rows (their kernels
    /// compute columns again per band), up to four a thread; frames without are cut finer, up
    /// to eight a thread of at least 48 rows; one thread draws the rows as one band.
    @Test func bandHeightsFollowWhatTheFrameDraws() {
        func rows(_ height: Int, waves: Bool, threads: Int) -> Int {
            RenderTuning().rowsPerBand(
                height: height, width: 1920, mostlyCircles: false, repeatsColumns: waves, threads: threads)
        }
        #expect(rows(189, waves: true, threads: 2) == 95)
        #expect(rows(600, waves: true, threads: 2) == 100)
        #expect(rows(600, waves: false, threads: 2) == 50)
        #expect(rows(1080, waves: false, threads: 2) == 68)
        #expect(rows(40, waves: false, threads: 2) == 20)
        #expect(rows(600, waves: false, threads: 1) == 600)
    }

    /// Shapes whose rows lie far beyond Int's range: the banded renderer's row extents converted
    /// them to Int unclamped, and a draw list with a wave stroke's baseline at 4.6e76 crashed
    /// `swell render` and `swell show` (found by fuzzing the file loaders). Above the frame a
    /// wave fills it all; below, and for the others either way, nothing is drawn.
    @Test(arguments: [1e76, -1e76, 1e300, -1e300, 9.3e18, -9.3e18])
    func shapesFarBeyondIntsRangeRenderAlikeInEveryRenderer(far: Double) throws {
        let red = "[1, 0, 0, 1]"
        let text = """
            {"format": "drawlist/1", "name": "far", "width": 40, "height": 30, "clear": [0, 0, 1], "ops": [
            {"op": "ring", "cx": 20, "cy": \(far), "radius": 5, "width": 2, "color": \(red)},
            {"op": "disc", "cx": 20, "cy": \(far), "radius": 5, "color": \(red)},
            {"op": "ring", "cx": 20, "cy": 15, "radius": \(abs(far)), "width": 2, "color": \(red)},
            {"op": "wave-stroke", "baseline": \(far), "amplitude": 3, "wavelength": 20, "phase": 0,
             "envelope": "none", "width": 2, "color": \(red)},
            {"op": "wave-fill", "baseline": \(far), "amplitude": 3, "wavelength": 20, "phase": 0, "color": \(red)}]}
            """
        let frame = try parseDrawList(bytes: Array(text.utf8), name: "far.json")
        let plain = Self.expectBandedMatchesPlain(frame, "far \(far)", configurations: [(1, 64), (2, 7), (1, 1)])
        let colour: UInt32 = far < 0 ? 0xFF_0000 : 0x00_00FF
        #expect(plain.allSatisfy { $0 & 0xFF_FFFF == colour }, "far \(far): the frame is one colour")
    }

    @Test func randomShapesCutByRandomClipsMatchTheUnclippedDraw() {
        // Drawing a shape clipped to each tile of a random tiling must equal drawing it whole.
        var random = SeededRandom(seed: 99)
        let width = 83
        let height = 61
        for _ in 0..<60 {
            let color = Color(
                r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1), a: random.uniform(0.1...1)
            )
            let shape: Shape
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                shape = .ring(
                    Ring(
                        centerX: random.uniform(-20...100), centerY: random.uniform(-20...80),
                        radius: random.uniform(0...60), width: random.uniform(0.2...12)))
            case 1:
                shape = .disc(
                    Disc(
                        centerX: random.uniform(-20...100), centerY: random.uniform(-20...80),
                        radius: random.uniform(0...60)))
            case 2:
                shape = .waveFill(
                    Wave(
                        baseline: random.uniform(-10...70), amplitude: random.uniform(-30...30),
                        wavelength: random.uniform(3...300), phase: random.uniform(-7...7)))
            default:
                shape = .waveStroke(
                    WaveStroke(
                        wave: Wave(
                            baseline: random.uniform(-10...70), amplitude: random.uniform(-30...30),
                            wavelength: random.uniform(3...300), phase: random.uniform(-7...7)),
                        envelope: Bool.random(using: &random) ? .parabola : .none, width: random.uniform(0.3...9),
                        length: Double(width)))
            }
            let xCut = Int.random(in: 1..<width, using: &random)
            let yCut = Int.random(in: 1..<height, using: &random)
            let (_, difference) = Self.tiledDifference(
                DrawCommand(shape, color: color), width: width, height: height, xCut: xCut, yCut: yCut,
                background: Color(r: 0.3, g: 0.6, b: 0.9))
            #expect(difference == nil, "\(shape) cut at \(xCut), \(yCut): \(difference ?? "")")
        }
    }

    @Test func ringSidesCutByClipsOfEveryWidthMatchTheUnclippedDraw() {
        // The kernels pick a coverage model per block of rows (a steep side's row normal, each
        // pixel's own normal, exact `Double`) from the frame, not the clip: a clip's edge
        // through a ring's side, or a clip narrower than a window, must not change a byte.
        // Opaque colours make every coverage byte visible in the output.
        var random = SeededRandom(seed: 37)
        let width = 97
        let height = 72
        for trial in 0..<160 {
            let color = Color(r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1))
            let ring = Ring(
                centerX: random.uniform(-40...140), centerY: random.uniform(-10...80), radius: random.uniform(26...70),
                width: random.uniform(1.5...9))
            // Every fourth trial cuts a strip 1–4 px wide at either side.
            let narrow = Int.random(in: 1...4, using: &random)
            let xCut =
                trial % 4 == 0
                ? (Bool.random(using: &random) ? narrow : width - narrow) : Int.random(in: 1..<width, using: &random)
            let yCut = Int.random(in: 1..<height, using: &random)
            let (_, difference) = Self.tiledDifference(
                DrawCommand(.ring(ring), color: color), width: width, height: height, xCut: xCut, yCut: yCut,
                background: Color(r: 0.3, g: 0.6, b: 0.9))
            #expect(difference == nil, "\(ring) cut at \(xCut), \(yCut): \(difference ?? "")")
        }
    }

    @Test func rowExtentsNeverMissAPaintedRow() {
        var random = SeededRandom(seed: 5)
        let width = 64
        let height = 48
        for _ in 0..<100 {
            let shape: Shape =
                Bool.random(using: &random)
                ? .ring(
                    Ring(
                        centerX: random.uniform(-10...70), centerY: random.uniform(-10...60),
                        radius: random.uniform(0...40), width: random.uniform(0.5...10)))
                : .waveStroke(
                    WaveStroke(
                        wave: Wave(
                            baseline: random.uniform(-10...60), amplitude: random.uniform(-20...20),
                            wavelength: random.uniform(5...200), phase: 0), envelope: .none,
                        width: random.uniform(0.5...8), length: 64))
            let buffer = PixelBuffer(width: width, height: height)
            draw(DrawCommand(shape, color: .white), on: buffer.surface, within: buffer.surface.bounds)
            let extent = rowExtent(of: shape, frameHeight: height)
            for y in 0..<height where !(extent.top..<extent.bottom).contains(y) {
                #expect(
                    (0..<width).allSatisfy { buffer.surface.row(y)[$0] == 0 },
                    "row \(y) painted outside \(extent) by \(shape)")
            }
        }
    }
}
