import SwellRaster
import SwellScenes
import Testing

/// The ops a scene produces at `time` (after the given events).
func ops(of scene: inout some Scene, at time: Double, size: FrameSize = FrameSize(width: 320, height: 180))
    -> [FrameCommand]
{
    var list: [FrameCommand] = []
    scene.render(at: time, size: size, into: &list)
    return list
}

func rings(_ list: [FrameCommand]) -> [(Ring, Color)] {
    list.compactMap { op in
        if case .draw(let command) = op, case .ring(let ring) = command.shape { return (ring, command.color) }
        return nil
    }
}

@Suite struct RipplesBehaviourTests {
    func pond(_ overrides: [String: ParameterValue] = [:]) -> RipplesScene {
        RipplesScene(SceneSettings(specs: RipplesScene.descriptor.parameters, overrides: overrides))
    }

    @Test func ringsGrowFadeAndExpire() {
        var scene = pond()
        #expect(scene.isIdle(at: 0))
        scene.handle(TouchEvent(.began, finger: 7, x: 50, y: 60, time: 1))
        #expect(!scene.isIdle(at: 1))
        let at8 = rings(ops(of: &scene, at: 8))
        #expect(at8.count == 1)
        #expect(abs(at8[0].0.radius - 40 * 7) < 1e-9)
        #expect(at8[0].0.width == 2 && at8[0].1.a == 0.5)
        // Half the lifetime: half way from red (#FF3B30) to white.
        #expect(abs(at8[0].1.g - (0x3B / 255.0 + (1 - 0x3B / 255.0) * 0.5)) < 1e-9)
        #expect(rings(ops(of: &scene, at: 15)).isEmpty)
        #expect(scene.count == 0)
        #expect(scene.isIdle(at: 15))
    }

    @Test func fingersGetPaletteColoursInOrderOfArrival() {
        var scene = pond()
        scene.handle(TouchEvent(.began, finger: 3, x: 0, y: 0, time: 0))
        scene.handle(TouchEvent(.began, finger: 1, x: 0, y: 0, time: 0))
        scene.handle(TouchEvent(.moved, finger: 3, x: 5, y: 0, time: 0.1))
        scene.handle(TouchEvent(.ended, finger: 3, x: 5, y: 0, time: 0.2))
        scene.handle(TouchEvent(.began, finger: 9, x: 0, y: 0, time: 0.3))  // takes the freed first colour
        let colours = rings(ops(of: &scene, at: 0.3)).map { $0.1 }
        let palette = RipplesScene.palette
        #expect(colours.count == 4)
        func close(_ a: Color, _ b: Color, fade: Double) -> Bool {
            let expected = b.r + (1 - b.r) * fade
            return abs(a.r - expected) < 1e-9
        }
        #expect(close(colours[0], palette[0], fade: 0.3 / 14))
        #expect(close(colours[1], palette[1], fade: 0.3 / 14))
        #expect(close(colours[2], palette[0], fade: 0.2 / 14))
        #expect(abs(colours[3].b - palette[0].b) < 1e-9)
    }

    @Test func theOldestRippleIsDroppedAtTheLimit() {
        var scene = pond(["limit": .number(3), "moves": .bool(true)])
        scene.handle(TouchEvent(.began, finger: 0, x: 0, y: 0, time: 0))
        for i in 1...4 { scene.handle(TouchEvent(.moved, finger: 0, x: Double(i), y: 0, time: Double(i) * 0.1)) }
        let list = rings(ops(of: &scene, at: 1))
        #expect(list.map { $0.0.centerX } == [2, 3, 4])
        var still = pond(["moves": .bool(false)])
        still.handle(TouchEvent(.began, finger: 0, x: 0, y: 0, time: 0))
        still.handle(TouchEvent(.moved, finger: 0, x: 4, y: 0, time: 0.1))
        #expect(rings(ops(of: &still, at: 1)).count == 1)
    }

    @Test func metricsOverlayDrawsTheCountInTheRoundedTitleFont() {
        var scene = pond(["metrics": .bool(true)])
        scene.handle(TouchEvent(.began, finger: 0, x: 100, y: 100, time: 0))
        let list = ops(of: &scene, at: 0.5)
        guard case .draw(let command) = list.last!, case .glyphs(let run) = command.shape else {
            Issue.record("no counter glyphs")
            return
        }
        // "Ripples: 1": nine inked glyphs (the space has none), in the top-left corner.
        #expect(run.glyphs.count == 9)
        #expect(run.bounds.x0 >= 0 && run.bounds.y0 >= 0 && run.bounds.x1 < 200 && run.bounds.y1 < 60)
        let buffer = PixelBuffer(width: 320, height: 180)
        clear(buffer.surface, color: .white, clip: buffer.surface.bounds)
        draw(command, on: buffer.surface, within: buffer.surface.bounds)
        var inked = 0
        for y in 0..<60 {
            for x in 0..<200 where buffer.surface.pixel(x: x, y: y) & 0xFF < 0x80 { inked += 1 }
        }
        #expect(inked > 150, "\(inked) dark pixels")
    }

    /// The counter is laid out again only when the count or the frame height changes; it must
    /// still follow both.
    @Test func theCounterFollowsTheCountAndTheFrameHeight() {
        func counter(_ list: [FrameCommand]) -> GlyphRun? {
            guard case .draw(let command) = list.last, case .glyphs(let run) = command.shape else { return nil }
            return run
        }
        var scene = pond(["metrics": .bool(true)])
        for k in 0..<9 { scene.handle(TouchEvent(.began, finger: k, x: 100, y: 100, time: 0)) }
        let nine = counter(ops(of: &scene, at: 0.5))
        #expect(nine?.glyphs.count == 9)  // "Ripples: 9"
        #expect(counter(ops(of: &scene, at: 0.6)) == nine)
        scene.handle(TouchEvent(.began, finger: 9, x: 100, y: 100, time: 0.6))
        #expect(counter(ops(of: &scene, at: 0.7))?.glyphs.count == 10)  // "Ripples: 10"
        let small = counter(ops(of: &scene, at: 0.8))!
        let large = counter(ops(of: &scene, at: 0.9, size: FrameSize(width: 1920, height: 1080)))!
        #expect(large.bounds.y1 - large.bounds.y0 > 2 * (small.bounds.y1 - small.bounds.y0))
    }
}

@Suite struct WaveAndElasticBehaviourTests {
    func waveParameters(_ list: [FrameCommand]) -> Wave? {
        guard case .draw(let command) = list.first, case .waveFill(let wave) = command.shape else { return nil }
        return wave
    }

    @Test func waveTimerAlternatesBetweenTallAndLowShapes() {
        var scene = WaveScene(WaveScene.descriptor.defaultSettings())
        let start = waveParameters(ops(of: &scene, at: 0))!
        #expect(start.amplitude == 10 && abs(start.wavelength - 2 * .pi / 0.1) < 1e-9)
        #expect(abs(start.baseline - (180 - 90)) < 1e-9)  // a 300 px band clamped to the 180 px frame
        let tall = waveParameters(ops(of: &scene, at: 4 + 3))!  // the first timer fires at 4 s, lasts 3 s
        #expect((30...60).contains(tall.amplitude))
        #expect((0.2...0.4).contains(2 * .pi / tall.wavelength))
        let low = waveParameters(ops(of: &scene, at: 8 + 3))!
        #expect((5...15).contains(low.amplitude))
        let mid = waveParameters(ops(of: &scene, at: 12 + 1.5))!  // easeInOut midpoint: half way
        let end = waveParameters(ops(of: &scene, at: 12 + 3))!
        #expect(abs(mid.amplitude - (low.amplitude + end.amplitude) / 2) < 1e-9)
        #expect(!scene.isIdle(at: 100))
    }

    @Test func waveWithoutTimerIsIdleUntilTapped() {
        var settings = WaveScene.descriptor.defaultSettings()
        settings.set("interval", .number(0))
        var scene = WaveScene(settings)
        #expect(scene.isIdle(at: 50))
        scene.handle(TouchEvent(.began, finger: 0, x: 0, y: 0, time: 50))
        #expect(!scene.isIdle(at: 52))
        #expect(scene.isIdle(at: 53))
        #expect(waveParameters(ops(of: &scene, at: 53))!.amplitude >= 30)
    }

    func topControlOffset(_ list: [FrameCommand]) -> Double {
        guard case .draw(let command) = list.first, case .path(let path) = command.shape,
            case .quad(_, let cy, _, _) = path.elements[1]
        else { return .nan }
        return 40 - cy  // inset 40: the top edge is at y = 40
    }

    @Test func elasticOvershootsThenSpringsBackAndRests() {
        var scene = ElasticScene(ElasticScene.descriptor.defaultSettings())
        #expect(topControlOffset(ops(of: &scene, at: 0)) == 0)
        scene.handle(TouchEvent(.began, finger: 0, x: 0, y: 0, time: 1))
        #expect(!scene.isIdle(at: 1.1))
        let out = Spring(duration: 0.25, dampingRatio: 0.9, initialVelocity: 1.5)
        #expect(abs(topControlOffset(ops(of: &scene, at: 1.1)) - 10 * out.progress(at: 0.1)) < 1e-9)
        #expect(abs(topControlOffset(ops(of: &scene, at: 1.25)) - 10) < 1e-9)
        let back = Spring(duration: 0.45, dampingRatio: 0.15, initialVelocity: 5.5)
        #expect(abs(topControlOffset(ops(of: &scene, at: 1.45)) - 10 * (1 - back.progress(at: 0.2))) < 1e-9)
        #expect(topControlOffset(ops(of: &scene, at: 1.71)) == 0)
        #expect(scene.isIdle(at: 1.71))
        #expect(!scene.isIdle(at: 1.69))
        // The wobble crosses the rest position (damping 0.15 overshoots).
        var fresh = ElasticScene(ElasticScene.descriptor.defaultSettings())
        fresh.handle(TouchEvent(.began, finger: 0, x: 0, y: 0, time: 0))
        let offsets = stride(from: 0.26, to: 0.7, by: 0.005).map { topControlOffset(ops(of: &fresh, at: $0)) }
        #expect(offsets.contains { $0 < -0.5 })
    }

    @Test func negativeOvershootPullsInward() {
        var settings = ElasticScene.descriptor.defaultSettings()
        settings.set("overshoot", .number(-12))
        var scene = ElasticScene(settings)
        scene.handle(TouchEvent(.began, finger: 0, x: 0, y: 0, time: 0))
        #expect(abs(topControlOffset(ops(of: &scene, at: 0.25)) + 12) < 1e-9)
    }
}

@Suite struct WaveformFlowSlideshowTests {
    @Test func waveformStrokesHaveRisingOpacityOffsetsAndAMask() {
        var scene = WaveformScene(WaveformScene.descriptor.defaultSettings())
        let list = ops(of: &scene, at: 0.25)
        guard case .beginLayer = list.first, case .endLayer(let mask, _) = list.last else {
            Issue.record("no masked layer")
            return
        }
        #expect(mask.alpha(at: 0) == 0 && mask.alpha(at: 160) == 1 && mask.alpha(at: 320) == 0)
        let strokes: [(WaveStroke, Color)] = list.compactMap { op in
            if case .draw(let c) = op, case .waveStroke(let s) = c.shape { return (s, c.color) }
            return nil
        }
        #expect(strokes.count == 9)  // wave 0 has opacity 0/10
        for (k, (stroke, color)) in strokes.enumerated() {
            let i = Double(k + 1)
            #expect(abs(color.a - i / 10) < 1e-12)
            #expect(abs(stroke.wave.baseline - (90 - 45 + 10 * i)) < 1e-9)
            #expect(abs(stroke.wave.phase - Double.pi / 2) < 1e-9)  // 2π per second, at 0.25 s
            #expect(stroke.envelope == .parabola && stroke.width == 5 && stroke.wave.amplitude == 50)
            #expect(abs(stroke.wave.wavelength - 2 * .pi * 320 / 10) < 1e-9)
        }
    }

    @Test func flowWavesMoveOneWavelengthPerPeriod() {
        var scene = FlowScene(FlowScene.descriptor.defaultSettings())
        func phases(_ t: Double) -> [Double] {
            ops(of: &scene, at: t).compactMap { op in
                if case .draw(let c) = op, case .waveFill(let w) = c.shape { return w.phase }
                return nil
            }
        }
        #expect(phases(0) == [0, Double.pi])
        #expect(abs(phases(0.5)[0] - Double.pi / 2) < 1e-9)
        var list = ops(of: &scene, at: 0)
        guard case .draw(let back) = list.removeFirst(), case .waveFill(let wave) = back.shape else { return }
        #expect(
            abs(back.color.a - 128.0 / 255) < 1e-9 && abs(wave.wavelength - 2 * .pi * 50) < 1e-9 && wave.amplitude == 30
        )
    }

    @Test func slideshowChangesOnTimerAndTapWithAWaveReveal() {
        var settings = SlideshowScene.descriptor.defaultSettings()
        settings.set("interval", .number(0))
        var scene = SlideshowScene(settings, images: SceneImages(syntheticImages()))
        #expect(scene.isIdle(at: 10))
        #expect(ops(of: &scene, at: 10).count == 1)
        scene.handle(TouchEvent(.began, finger: 0, x: 0, y: 0, time: 10))
        let during = ops(of: &scene, at: 11)
        #expect(during.count == 2)
        guard case .maskedImage(_, let path, _) = during[1] else {
            Issue.record("no reveal")
            return
        }
        // easeOut at 1/3: the band covers that share of H + 2A around the middle.
        let pct = TimingCurve.easeOut.value(at: 1.0 / 3)
        let ys = path.elements.compactMap { element -> Double? in
            if case .line(_, let y) = element { return y }
            if case .move(_, let y) = element { return y }
            return nil
        }
        #expect(abs((ys.max()! - ys.min()!) - (pct * (180 + 40) + 0)) < 2 * 20 + 1e-9)
        #expect(ys.min()! >= 90 - pct * 110 - 20 - 1e-9)
        #expect(!scene.isIdle(at: 12.9))
        #expect(scene.isIdle(at: 13))
        #expect(ops(of: &scene, at: 13).count == 1)
    }
}

@Suite struct LayerRowsTests {
    /// The player saves and masks only the rows a layer's ops can touch; the frame must be the
    /// bytes of masking every row (the layer leaves other rows as they were, and mixing a pixel
    /// with itself gives it back). At 320x360 the waveform bundle covers about a third of the rows.
    @Test func maskingOnlyTheLayersRowsGivesTheSameBytesAsMaskingTheFrame() {
        let size = FrameSize(width: 320, height: 360)
        var scene = WaveformScene(WaveformScene.descriptor.defaultSettings())
        let list = ops(of: &scene, at: 0.3, size: size)
        let player = ScenePlayer(layers: [WaveformScene(WaveformScene.descriptor.defaultSettings())])
        let played = PixelBuffer(width: size.width, height: size.height)
        player.render(at: 0.3, into: played.surface)

        // The reference: the whole frame saved and masked.
        let reference = PixelBuffer(width: size.width, height: size.height)
        let unmasked = PixelBuffer(width: size.width, height: size.height)
        let below = PixelBuffer(width: size.width, height: size.height)
        let bounds = reference.surface.bounds
        clear(reference.surface, color: scene.background, clip: bounds)
        clear(unmasked.surface, color: scene.background, clip: bounds)
        for op in list {
            switch op {
            case .beginLayer: compositeImage(below.surface, reference.surface, alpha: 1, clip: bounds)
            case .endLayer(let mask, _): applyLayerMask(reference.surface, below: below.surface, mask, clip: bounds)
            case .draw(let command):
                draw(command, on: reference.surface, within: bounds)
                draw(command, on: unmasked.surface, within: bounds)
            default: Issue.record("unexpected op \(op)")
            }
        }
        let masked = reference.packedBytes()
        let same = played.packedBytes() == masked
        #expect(same, "the player's layered frame differs from masking the whole frame")
        // The mask matters in this frame (the test would not see a layer that was never masked).
        let maskChangesTheFrame = unmasked.packedBytes() != masked
        #expect(maskChangesTheFrame)
    }
}
