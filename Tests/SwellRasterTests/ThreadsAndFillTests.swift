import SwellDrawList
import SwellRaster
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 37's renderer changes, each of which must leave every byte as it was: the streaming
/// fill of the rows no command drew (`RenderTuning.streamingFillBytes`), the pool's early wake
/// (`FrameRenderer.prepare()`), and the band plans for many threads.
@Suite struct ThreadsAndFillTests {
    /// A renderer on `threads` threads that streams the fill of every frame (threshold 0), or
    /// never (nil).
    static func renderer(threads: Int, streaming: Bool, bandHeight: Int? = nil) -> FrameRenderer {
        FrameRenderer(
            threads: threads, tuning: RenderTuning(bandHeight: bandHeight, streamingFillBytes: streaming ? 0 : nil))
    }

    static func plainPixels(_ frame: DisplayList) -> [UInt32] {
        let plain = PixelBuffer(width: frame.width, height: frame.height)
        render(frame, into: plain.surface)
        return FrameRendererTests.packed(plain.surface)
    }

    /// Whole frames: streamed and plain fills give the plain pipeline's bytes, on 1–3 threads.
    @Test(arguments: ["text-page", "ripples-60", "waves", "waves-4k"])
    func streamedFillGivesThePlainBytes(list: String) throws {
        let frame = try loadDrawList(path: benchDataPath(list))
        let expected = Self.plainPixels(frame)
        for threads in [1, 2, 3] {
            for streaming in [true, false] {
                let buffer = PixelBuffer(width: frame.width, height: frame.height)
                Self.renderer(threads: threads, streaming: streaming).render(
                    frame, into: buffer.surface, tracksDamage: false)
                let difference = FrameRendererTests.firstDifference(
                    FrameRendererTests.packed(buffer.surface), expected, width: frame.width)
                #expect(difference == nil, "\(list), \(threads) threads, streaming \(streaming): \(difference ?? "")")
            }
        }
    }

    /// Small odd-sized frames (rows not 16-byte aligned: the fill's scalar head and tail) of
    /// random commands, with band heights that cut them anywhere.
    @Test func streamedFillOnOddSizesAndBands() {
        var random = SeededRandom(seed: 37)
        let background = Color(r: 0.04, g: 0.12, b: 0.24)
        for trial in 0..<30 {
            let width = Int.random(in: 1...75, using: &random)
            let height = Int.random(in: 1...60, using: &random)
            var commands: [DrawCommand] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let color = Color(
                    r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1),
                    a: Bool.random(using: &random) ? 1 : random.uniform(0.05...1))
                let shape: Shape
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    shape = .disc(
                        Disc(
                            centerX: random.uniform(-10...80), centerY: random.uniform(-10...60),
                            radius: random.uniform(0...12)))
                case 1:
                    shape = .waveFill(
                        Wave(
                            baseline: random.uniform(-10...70), amplitude: random.uniform(-8...8),
                            wavelength: random.uniform(5...200), phase: random.uniform(-3...3)))
                default:
                    shape = .ring(
                        Ring(
                            centerX: random.uniform(-10...80), centerY: random.uniform(-10...60),
                            radius: random.uniform(0...20), width: random.uniform(0.5...4)))
                }
                commands.append(DrawCommand(shape, color: color))
            }
            let frame = DisplayList(width: width, height: height, background: background, shapes: commands)
            let expected = Self.plainPixels(frame)
            for (threads, bandHeight) in [(1, nil), (1, 3), (2, nil), (3, 7)] as [(Int, Int?)] {
                let buffer = PixelBuffer(width: width, height: height)
                Self.renderer(threads: threads, streaming: true, bandHeight: bandHeight).render(
                    frame, into: buffer.surface, tracksDamage: false)
                #expect(
                    FrameRendererTests.packed(buffer.surface) == expected,
                    "trial \(trial), \(width)x\(height), \(threads) threads, bands \(bandHeight ?? 0)")
            }
        }
    }

    /// Partial damage: a frame, then the same frame with a few commands changed, drawn over it
    /// with damage tracking; only the damaged rows are drawn (and streamed), and the result is
    /// the plain pipeline's second frame.
    @Test(arguments: ["ripples-60", "waves", "text-page"])
    func streamedFillOverPartialDamage(list: String) throws {
        let first = try loadDrawList(path: benchDataPath(list))
        var second = first
        // Drop the last command and move nothing else: its rows are the damage.
        second.commands.removeLast()
        let expected = Self.plainPixels(second)
        for threads in [1, 2] {
            for streaming in [true, false] {
                let renderer = Self.renderer(threads: threads, streaming: streaming)
                let buffer = PixelBuffer(width: first.width, height: first.height)
                renderer.render(first, into: buffer.surface)
                let damage = renderer.render(second, into: buffer.surface)
                let difference = FrameRendererTests.firstDifference(
                    FrameRendererTests.packed(buffer.surface), expected, width: first.width)
                #expect(!damage.isEmpty, "\(list): the change has damage")
                #expect(difference == nil, "\(list), \(threads) threads, streaming \(streaming): \(difference ?? "")")
            }
        }
    }

    /// Frames paced like a kiosk's (the helpers asleep between them), each announced with
    /// `prepare()` before it is rendered: the same bytes as one thread, and the helpers were
    /// woken early at least once (the wake path was taken, not only the spinning one).
    @Test func preparedFramesOnSleepingHelpersGiveTheSameBytes() throws {
        let frame = try loadDrawList(path: benchDataPath("waves"))
        let expected = Self.plainPixels(frame)
        let renderer = FrameRenderer(threads: 2)
        let buffer = PixelBuffer(width: frame.width, height: frame.height)
        var mismatches = 0
        for _ in 0..<20 {
            // Long past the helpers' spin: they go to sleep.
            usleep(3000)
            renderer.prepare()
            renderer.render(frame, into: buffer.surface, tracksDamage: false)
            if FrameRendererTests.packed(buffer.surface) != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(renderer.helperWakeups > 0)
        // One thread has no helpers to wake.
        let single = FrameRenderer(threads: 1)
        single.prepare()
        #expect(single.helperWakeups == 0)
    }

    /// Every plan covers each damaged row exactly once (row bands) or each column of the damage
    /// once (strips), for 1–16 threads and frames of many sizes and kinds.
    @Test(arguments: ["ripples-60", "ripples-1000", "waves", "text-page"])
    func bandPlansCoverEveryPixelOnce(list: String) throws {
        let loaded = try loadDrawList(path: benchDataPath(list))
        for (width, height) in [(1, 1), (3, 2), (17, 5), (200, 97), (loaded.width, loaded.height), (641, 1201)] {
            var frame = loaded
            frame.width = width
            frame.height = height
            for threads in 1...16 {
                let renderer = FrameRenderer(threads: threads)
                renderer.bandThreads = threads
                let buffer = PixelBuffer(width: width, height: height)
                renderer.render(frame, into: buffer.surface, tracksDamage: false)
                var counts = [Int](repeating: 0, count: width * height)
                for band in renderer.bandsDrawn {
                    for y in band.y0..<band.y1 {
                        for x in band.x0..<band.x1 where x >= 0 && x < width && y >= 0 && y < height {
                            counts[y * width + x] += 1
                        }
                    }
                }
                let wrong = counts.indices.first { counts[$0] != 1 }
                #expect(
                    wrong == nil,
                    "\(list) \(width)x\(height), \(threads) threads: pixel \(wrong ?? 0) in \(wrong.map { counts[$0] } ?? 0) bands"
                )
            }
        }
    }
}
