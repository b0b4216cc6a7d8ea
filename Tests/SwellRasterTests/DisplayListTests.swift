import SwellDrawList
import SwellRaster
import Testing

/// Display lists with layers, masks and pictures: `FrameRenderer` (bands, threads, damage) must
/// give the bytes of the plain op-by-op `render(_:into:)` of the list, frame after frame.
@Suite struct DisplayListTests {
    static let width = 97
    static let height = 71

    /// A picture of the frame's size with a different colour in every pixel (or a smaller one).
    static func picture(_ random: inout SeededRandom, width: Int = width, height: Int = height) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { buffer.surface.row(y)[x] = 0xFF00_0000 | UInt32(truncatingIfNeeded: random.next()) }
        }
        return buffer
    }

    /// Opaque one time in three: an opaque wave fill hides what lies under its covered rows, and
    /// the renderer skips drawing there (`BandJob.visibleRows`).
    static func color(_ random: inout SeededRandom) -> Color {
        let alpha = Int.random(in: 0..<3, using: &random) == 0 ? 1 : random.uniform(0.05...1)
        return Color(r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1), a: alpha)
    }

    static func path(_ random: inout SeededRandom) -> Path {
        var path = Path()
        let cx = random.uniform(-10...Double(width + 10))
        let cy = random.uniform(-10...Double(height + 10))
        let size = random.uniform(2...40)
        path.move(to: cx - size, cy)
        path.quad(control: cx - size, cy - size, to: cx, cy - size)
        path.line(to: cx + size * random.uniform(0.3...1.5), cy + random.uniform(-size...size))
        path.quad(control: cx, cy + size * 1.5, to: cx - size, cy)
        path.close()
        return path
    }

    static func shape(_ random: inout SeededRandom) -> Shape {
        let w = Double(width)
        let h = Double(height)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return .ring(
                Ring(
                    centerX: random.uniform(-10...w + 10), centerY: random.uniform(-10...h + 10),
                    radius: random.uniform(0...30), width: random.uniform(0.5...8)))
        case 1:
            return .disc(
                Disc(
                    centerX: random.uniform(-10...w + 10), centerY: random.uniform(-10...h + 10),
                    radius: random.uniform(0...20)))
        case 2:
            return .waveFill(
                Wave(
                    baseline: random.uniform(-5...h), amplitude: random.uniform(-12...12),
                    wavelength: random.uniform(5...150), phase: random.uniform(-3...3)))
        case 3:
            return .waveStroke(
                WaveStroke(
                    wave: Wave(
                        baseline: random.uniform(0...h), amplitude: random.uniform(-15...15),
                        wavelength: random.uniform(5...150), phase: random.uniform(-3...3)),
                    envelope: Bool.random(using: &random) ? .parabola : .none, width: random.uniform(0.5...6),
                    length: w))
        default:
            return .path(path(&random))
        }
    }

    static func mask(_ random: inout SeededRandom) -> HorizontalGradientMask {
        let w = Double(width)
        return HorizontalGradientMask(stops: [
            MaskStop(x: random.uniform(-10...w / 3), alpha: random.uniform(0...1)),
            MaskStop(x: random.uniform(w / 3...w * 2 / 3), alpha: 1),
            MaskStop(x: random.uniform(w * 2 / 3...w + 10), alpha: random.uniform(0...1)),
        ])
    }

    /// One random command; layers come as balanced begin/end pairs around a few commands (nested
    /// sometimes), with the odd unmatched begin or end that must do nothing.
    static func commands(_ random: inout SeededRandom, pictures: [PixelBuffer], depth: Int = 0) -> [FrameCommand] {
        switch Int.random(in: 0..<12, using: &random) {
        case 0...5:
            let clip: ClipRect? =
                Int.random(in: 0..<6, using: &random) == 0
                ? ClipRect(
                    x0: Int.random(in: -5..<50, using: &random), y0: Int.random(in: -5..<40, using: &random),
                    x1: Int.random(in: 40..<110, using: &random), y1: Int.random(in: 30..<80, using: &random)) : nil
            return [.draw(DrawCommand(shape(&random), color: color(&random), clip: clip))]
        case 6:
            let alpha: Float = Bool.random(using: &random) ? 1 : Float(random.uniform(0...1))
            return [.image(pictures.randomElement(using: &random)!, alpha: alpha)]
        case 7:
            return [.maskedImage(pictures.randomElement(using: &random)!, path(&random))]
        case 8...9 where depth < 2:
            var inner: [FrameCommand] = [.beginLayer]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                inner += commands(&random, pictures: pictures, depth: depth + 1)
            }
            return inner + [.endLayer(mask(&random))]
        case 10:
            return Int.random(in: 0..<8, using: &random) == 0 ? [.endLayer(mask(&random))] : []
        default:
            return Int.random(in: 0..<8, using: &random) == 0 ? [.beginLayer] : []
        }
    }

    static func randomList(_ random: inout SeededRandom, pictures: [PixelBuffer], count: Int) -> DisplayList {
        var list = DisplayList(width: width, height: height, background: color(&random).withOpacity())
        while list.commands.count < count { list.commands += commands(&random, pictures: pictures) }
        return list
    }

    static func plainPixels(_ list: DisplayList) -> [UInt32] {
        let buffer = PixelBuffer(width: list.width, height: list.height)
        render(list, into: buffer.surface)
        return FrameRendererTests.packed(buffer.surface)
    }

    static let configurations: [(threads: Int, bandHeight: Int?)] = [(1, nil), (1, 1), (1, 9), (2, nil), (3, 5)]

    @Test func layersMasksAndPicturesInBandsAndThreadsGiveThePlainBytes() {
        var random = SeededRandom(seed: 2026)
        let pictures = [Self.picture(&random), Self.picture(&random), Self.picture(&random, width: 60, height: 40)]
        for trial in 0..<40 {
            let list = Self.randomList(&random, pictures: pictures, count: Int.random(in: 1...14, using: &random))
            let expected = Self.plainPixels(list)
            for (threads, bandHeight) in Self.configurations {
                let buffer = PixelBuffer(width: list.width, height: list.height)
                FrameRenderer(threads: threads, bandHeight: bandHeight).render(list, into: buffer.surface)
                let difference = FrameRendererTests.firstDifference(
                    FrameRendererTests.packed(buffer.surface), expected, width: list.width)
                let bands = bandHeight.map(String.init) ?? "default"
                #expect(difference == nil, "trial \(trial), \(threads) threads, bands of \(bands): \(difference ?? "")")
            }
        }
    }

    /// The layer masks a layer's own drawing only: what was below shows through where the mask is
    /// clear (a check of the plain reference itself, against mixing by hand).
    @Test func theReferenceMasksALayerOverWhatWasBelow() {
        let below = Color(r: 0, g: 0, b: 1)
        let disc = DrawCommand(.disc(Disc(centerX: 48, centerY: 35, radius: 60)), color: Color(r: 1, g: 0, b: 0))
        let mask = HorizontalGradientMask(stops: [MaskStop(x: 0, alpha: 0), MaskStop(x: 97, alpha: 1)])
        let list = DisplayList(
            width: Self.width, height: Self.height, background: below,
            commands: [.beginLayer, .draw(disc), .endLayer(mask)])
        let pixels = Self.plainPixels(list)
        let left = pixels[30 * Self.width]
        let right = pixels[30 * Self.width + Self.width - 1]
        #expect(left & 0xFF > 0xF0 && (left >> 16) & 0xFF < 0x08, "the left edge shows the blue below")
        #expect((right >> 16) & 0xFF > 0xF0 && right & 0xFF < 0x08, "the right edge shows the red layer")
    }

    /// Random sequences of frames (shapes, layers, pictures moving, appearing, disappearing,
    /// frames repeated, the background changing) rendered with damage into one surface give,
    /// every frame, the plain pipeline's bytes; the damage covers every changed pixel, a repeated
    /// frame has none, and a frame where one small shape moved is not drawn whole.
    @Test(arguments: [(1, nil), (2, nil), (1, 6), (3, 11)] as [(Int, Int?)])
    func framesRenderedWithDamageGiveThePlainBytesEveryFrame(threads: Int, bandHeight: Int?) {
        var random = SeededRandom(seed: UInt64(17 + threads * 100 + (bandHeight ?? 0)))
        let pictures = [Self.picture(&random), Self.picture(&random), Self.picture(&random)]
        let renderer = FrameRenderer(threads: threads, bandHeight: bandHeight)
        let surface = PixelBuffer(width: Self.width, height: Self.height)
        var list = Self.randomList(&random, pictures: pictures, count: 8)
        var previous: [UInt32]?
        var partialFrames = 0
        var smallMoves = 0
        for frame in 0..<120 {
            let change = Int.random(in: 0..<10, using: &random)
            var smallMove = false
            switch change {
            case 0: break  // the same frame again
            case 1: list.commands += Self.commands(&random, pictures: pictures)  // appears
            case 2 where !list.commands.isEmpty:  // disappears
                list.commands.remove(at: Int.random(in: 0..<list.commands.count, using: &random))
            case 3: list.background = Self.color(&random).withOpacity()
            case 4: list = Self.randomList(&random, pictures: pictures, count: Int.random(in: 0...10, using: &random))
            default:  // one command moves or changes
                guard !list.commands.isEmpty else { continue }
                let index = Int.random(in: 0..<list.commands.count, using: &random)
                if case .draw(var command) = list.commands[index] {
                    command.shape = Self.moved(command.shape, &random)
                    list.commands[index] = .draw(command)
                    smallMove = Self.isSmall(command.shape)
                } else {
                    list.commands[index] = Self.commands(&random, pictures: pictures).first ?? .beginLayer
                }
            }
            let damage = renderer.render(list, into: surface.surface)
            let expected = Self.plainPixels(list)
            let got = FrameRendererTests.packed(surface.surface)
            let difference = FrameRendererTests.firstDifference(got, expected, width: Self.width)
            #expect(difference == nil, "frame \(frame) (change \(change)): \(difference ?? "")")
            if let previous {
                for index in expected.indices where expected[index] != previous[index] {
                    let x = index % Self.width
                    let y = index / Self.width
                    let covered = damage.rects.contains { $0.x0 <= x && x < $0.x1 && $0.y0 <= y && y < $0.y1 }
                    #expect(covered, "frame \(frame): pixel (\(x), \(y)) changed outside the damage")
                    if !covered { break }
                }
                if change == 0 { #expect(damage.isEmpty, "frame \(frame): a repeated frame has damage") }
            }
            if smallMove { smallMoves += 1 }
            if smallMove && damage.area < Self.width * Self.height { partialFrames += 1 }
            previous = expected
        }
        // Moving a shape inside a layer can grow the layer's rectangle: most, not all, are small.
        #expect(
            smallMoves > 2 && 2 * partialFrames >= smallMoves,
            "frames where a small shape moved drawn in part: \(partialFrames) of \(smallMoves)")
    }

    static func isSmall(_ shape: Shape) -> Bool {
        switch shape {
        case .disc(let disc): return disc.radius < 15
        case .ring(let ring): return ring.radius + ring.width < 15
        default: return false
        }
    }

    static func moved(_ shape: Shape, _ random: inout SeededRandom) -> Shape {
        switch shape {
        case .ring(var ring):
            ring.centerX += random.uniform(-4...4)
            ring.radius = max(0, ring.radius + random.uniform(-2...2))
            return .ring(ring)
        case .disc(var disc):
            disc.centerY += random.uniform(-4...4)
            return .disc(disc)
        case .waveFill(var wave):
            wave.phase += 0.3
            return .waveFill(wave)
        case .waveStroke(var stroke):
            stroke.wave.phase += 0.3
            return .waveStroke(stroke)
        default:
            return .path(path(&random))
        }
    }

    /// A new surface (another address or size), `invalidate()`, or a list of another size: the
    /// frame is drawn whole, whatever the surface held.
    @Test func anotherSurfaceOrInvalidateDrawsTheWholeFrame() {
        var random = SeededRandom(seed: 8)
        let pictures = [Self.picture(&random)]
        let list = Self.randomList(&random, pictures: pictures, count: 6)
        let expected = Self.plainPixels(list)
        let renderer = FrameRenderer()
        let first = PixelBuffer(width: Self.width, height: Self.height)
        let second = PixelBuffer(width: Self.width, height: Self.height)
        #expect(renderer.render(list, into: first.surface) == .whole(width: Self.width, height: Self.height))
        #expect(renderer.render(list, into: first.surface).isEmpty)
        #expect(renderer.render(list, into: second.surface) == .whole(width: Self.width, height: Self.height))
        #expect(FrameRendererTests.packed(second.surface) == expected)
        clear(second.surface, color: .white, clip: second.surface.bounds)
        renderer.invalidate()
        #expect(renderer.render(list, into: second.surface) == .whole(width: Self.width, height: Self.height))
        #expect(FrameRendererTests.packed(second.surface) == expected)
        #expect(renderer.render(list, into: second.surface, tracksDamage: false).area == Self.width * Self.height)
    }

    /// Column extents, like row extents, never miss a painted pixel.
    @Test func boundsNeverMissAPaintedPixel() {
        var random = SeededRandom(seed: 12)
        for _ in 0..<200 {
            let command = DrawCommand(Self.shape(&random), color: .white)
            let buffer = PixelBuffer(width: Self.width, height: Self.height)
            draw(command, on: buffer.surface, within: buffer.surface.bounds)
            let rect = bounds(of: command, width: Self.width, height: Self.height)
            for y in 0..<Self.height {
                for x in 0..<Self.width where buffer.surface.row(y)[x] != 0 {
                    let inside = rect.x0 <= x && x < rect.x1 && rect.y0 <= y && y < rect.y1
                    #expect(inside, "(\(x), \(y)) painted outside \(rect) by \(command.shape)")
                    if !inside { return }
                }
            }
        }
    }
}

extension Color {
    func withOpacity() -> Color { Color(r: r, g: g, b: b, a: 1) }
}

/// The bench lists (1920x1080: rings of every size, wave fills and strokes) drawn whole, then
/// with a small disc added and removed through damage: the same bytes as the plain pipeline.
@Suite struct BenchListDamageTests {
    @Test(arguments: ["ripples-60", "ripples-1000", "waves"])
    func aDiscAddedAndRemovedLeavesTheBenchListsBytes(list name: String) throws {
        let list = try loadDrawList(path: benchDataPath(name))
        var withDisc = list
        withDisc.append(
            DrawCommand(
                .disc(Disc(centerX: Double(list.width) / 2, centerY: Double(list.height) / 2, radius: 24)),
                color: Color(r: 1, g: 0.5, b: 0, a: 0.6)))
        for threads in [1, 2] {
            let renderer = FrameRenderer(threads: threads)
            let buffer = PixelBuffer(width: list.width, height: list.height)
            for (step, shown) in [list, withDisc, list, withDisc].enumerated() {
                let damage = renderer.render(shown, into: buffer.surface)
                let expected = DisplayListTests.plainPixels(shown)
                let difference = FrameRendererTests.firstDifference(
                    FrameRendererTests.packed(buffer.surface), expected, width: list.width)
                #expect(
                    difference == nil, "\(name), \(threads) threads, step \(step) \(damage.rects): \(difference ?? "")")
            }
        }
    }
}
