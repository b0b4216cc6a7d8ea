import Foundation
import SwellRaster
import Testing

/// The bench draw lists (bench-data/waves.json, waves-4k.json) rendered whole with the kernels
/// agree with the Double reference (per-op 8-bit rounding) on four 256x256 tiles that cover the
/// stroke caps, the crossing strokes and the layered fills.
@Suite struct WaveBenchListTests {
    static let benchData = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("bench-data")

    /// Reads a wave draw list with Foundation (the test does not depend on the project's loader).
    static func loadFrame(_ name: String) throws -> DisplayList {
        let data = try Data(contentsOf: benchData.appendingPathComponent(name))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let width = try #require(root["width"] as? Int)
        let height = try #require(root["height"] as? Int)
        let clear = try #require(root["clear"] as? [Double])
        var commands: [DrawCommand] = []
        for op in try #require(root["ops"] as? [[String: Any]]) {
            let c = try #require(op["color"] as? [Double])
            func number(_ key: String) throws -> Double { try #require(op[key] as? Double, "field \(key)") }
            let wave = Wave(
                baseline: try number("baseline"), amplitude: try number("amplitude"),
                wavelength: try number("wavelength"), phase: try number("phase"))
            let color = Color(r: c[0], g: c[1], b: c[2], a: c[3])
            switch op["op"] as? String {
            case "wave-fill":
                commands.append(DrawCommand(.waveFill(wave), color: color))
            case "wave-stroke":
                let envelopeName = try #require(op["envelope"] as? String)
                let envelope = try #require(WaveEnvelope(rawValue: envelopeName))
                let stroke = WaveStroke(
                    wave: wave, envelope: envelope, width: try number("width"), length: Double(width))
                commands.append(DrawCommand(.waveStroke(stroke), color: color))
            default:
                Issue.record("unexpected op \(op)")
            }
        }
        return DisplayList(
            width: width, height: height, background: Color(r: clear[0], g: clear[1], b: clear[2]), shapes: commands)
    }

    /// The reference pixels of one tile: background, then each op composited in Double and
    /// rounded to 8 bits, as the list's semantics define.
    static func referenceTile(_ frame: DisplayList, x0: Int, y0: Int, size: Int) -> [UInt32] {
        referenceTile(frame, x0: x0, y0: y0, width: size, height: size).pixels
    }

    /// The reference pixels of a `width` × `height` tile, and which of them a stroke covers.
    static func referenceTile(_ frame: DisplayList, x0: Int, y0: Int, width: Int, height: Int) -> (
        pixels: [UInt32], stroked: [Bool]
    ) {
        var pixels = [UInt32](repeating: frame.background.opaquePixel, count: width * height)
        var stroked = [Bool](repeating: false, count: width * height)
        for case .draw(let command) in frame.commands {
            let coverage: CoverageMap
            switch command.shape {
            case .waveFill(let wave):
                coverage = ReferenceWave.fillCoverage(wave, x0: x0, y0: y0, width: width, height: height)
            case .waveStroke(let stroke):
                coverage = ReferenceWave.strokeCoverage(stroke, x0: x0, y0: y0, width: width, height: height)
                for index in 0..<(width * height) where coverage.values[index] > 0 { stroked[index] = true }
            default:
                continue
            }
            let c = command.color
            for index in 0..<(width * height) where coverage.values[index] > 0 {
                let alpha = c.a * coverage.values[index]
                let d = pixels[index]
                let r = referenceComposite(destination: (d >> 16) & 0xFF, source: c.r, alpha: alpha)
                let g = referenceComposite(destination: (d >> 8) & 0xFF, source: c.g, alpha: alpha)
                let b = referenceComposite(destination: d & 0xFF, source: c.b, alpha: alpha)
                pixels[index] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return (pixels, stroked)
    }

    static func compare(_ name: String, tiles: [(Int, Int)]) throws {
        let frame = try loadFrame(name)
        let buffer = PixelBuffer(width: frame.width, height: frame.height)
        render(frame, into: buffer.surface)
        let size = 256
        for (x0, y0) in tiles {
            let reference = referenceTile(frame, x0: x0, y0: y0, size: size)
            var sum = 0.0
            var worst = 0
            var differing = 0
            for j in 0..<size {
                for i in 0..<size {
                    let got = buffer.surface.pixel(x: x0 + i, y: y0 + j)
                    let want = reference[j * size + i]
                    for shift: UInt32 in [0, 8, 16] {
                        let d = abs(Int((got >> shift) & 0xFF) - Int((want >> shift) & 0xFF))
                        sum += Double(d)
                        worst = max(worst, d)
                        if d > 0 { differing += 1 }
                    }
                }
            }
            let mean = sum / Double(size * size * 3)
            print(
                "\(name) tile (\(x0), \(y0)): mean channel error \(mean)/255, max \(worst)/255, \(differing) channels differ"
            )
            #expect(mean <= 0.5, "\(name) tile (\(x0), \(y0)): mean \(mean)/255")
            #expect(worst <= 4, "\(name) tile (\(x0), \(y0)): max \(worst)/255")
        }
    }

    /// The frame's first and last pixel columns, where the strokes end (cut by the curve's
    /// normals at x = 0 and x = W), against the reference over the whole frame height: the
    /// largest channel error, the mean over the pixels a stroke reaches, and how many of those
    /// are more than 4/255 off.
    static func compareEndColumns(_ name: String) throws {
        let frame = try loadFrame(name)
        let buffer = PixelBuffer(width: frame.width, height: frame.height)
        render(frame, into: buffer.surface)
        var worst = 0
        var sum = 0.0
        var strokedPixels = 0
        var farOff = 0
        for x0 in [0, frame.width - 1] {
            let (reference, stroked) = referenceTile(frame, x0: x0, y0: 0, width: 1, height: frame.height)
            for j in 0..<frame.height where stroked[j] {
                let got = buffer.surface.pixel(x: x0, y: j)
                let want = reference[j]
                var pixelWorst = 0
                for shift: UInt32 in [0, 8, 16] {
                    let d = abs(Int((got >> shift) & 0xFF) - Int((want >> shift) & 0xFF))
                    sum += Double(d)
                    pixelWorst = max(pixelWorst, d)
                }
                worst = max(worst, pixelWorst)
                strokedPixels += 1
                if pixelWorst > 4 { farOff += 1 }
            }
        }
        let mean = sum / Double(max(1, strokedPixels) * 3)
        print(
            "\(name) end columns: max \(worst)/255, mean \(mean)/255 over \(strokedPixels) stroked pixels, \(farOff) more than 4/255 off"
        )
        // Where an end's slope is small its normal is steep: the cut's kink falls between two of
        // the 32 sub-column samples and costs a few levels on a pixel or two (round ends: 91/255).
        #expect(strokedPixels > 20, "\(name): the strokes reach the end columns")
        #expect(worst <= 6, "\(name) end columns: max \(worst)/255")
        #expect(farOff <= 2, "\(name) end columns: \(farOff) pixels more than 4/255 off")
        #expect(mean <= 0.25, "\(name) end columns: mean \(mean)/255")
    }

    @Test func wavesListEndColumnsMatchTheReference() throws {
        try Self.compareEndColumns("waves.json")
    }

    @Test func waves4kListEndColumnsMatchTheReference() throws {
        try Self.compareEndColumns("waves-4k.json")
    }

    @Test func wavesListMatchesTheReference() throws {
        // Left caps, the middle of the crossing strokes, the right caps, the fills' overlap.
        try Self.compare("waves.json", tiles: [(0, 330), (832, 380), (1664, 330), (500, 560)])
    }

    @Test func waves4kListMatchesTheReference() throws {
        try Self.compare("waves-4k.json", tiles: [(0, 700), (1800, 780), (3584, 700), (1000, 1150)])
    }
}
