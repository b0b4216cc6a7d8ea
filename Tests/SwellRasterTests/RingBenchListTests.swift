import Foundation
import SwellRaster
import Testing

/// The bench lists' rings drawn by the kernels agree with the reference: the kernels render the
/// whole 1920x1080 frame; the reference composites the same ops in `Double` (coverage by
/// sub-row integration, each op rounded to 8 bits) over four 256x256 tiles of it.
@Suite struct RingBenchListTests {
    /// A bench list's frame, parsed with Foundation (tests may use it; the raster module may not).
    static func loadFrame(_ name: String) throws -> DisplayList {
        let testFile = URL(fileURLWithPath: #filePath)
        let url = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("bench-data").appendingPathComponent(name)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let root = try #require(object as? [String: Any], "\(name): the top level is not an object")
        let width = try #require(root["width"] as? Int, "\(name): width")
        let height = try #require(root["height"] as? Int, "\(name): height")
        let clear = try #require(root["clear"] as? [Double], "\(name): clear")
        let ops = try #require(root["ops"] as? [[String: Any]], "\(name): ops")
        var commands: [DrawCommand] = []
        for (index, op) in ops.enumerated() {
            #expect(op["op"] as? String == "ring", "\(name): ops[\(index)] is not a ring")
            let color = try #require(op["color"] as? [Double], "\(name): ops[\(index)].color")
            let ring = Ring(
                centerX: try #require(op["cx"] as? Double), centerY: try #require(op["cy"] as? Double),
                radius: try #require(op["radius"] as? Double), width: try #require(op["width"] as? Double))
            commands.append(DrawCommand(.ring(ring), color: Color(r: color[0], g: color[1], b: color[2], a: color[3])))
        }
        return DisplayList(
            width: width, height: height, background: Color(r: clear[0], g: clear[1], b: clear[2]), shapes: commands)
    }

    /// The reference composite of `frame` over the tile [x0, x0+size) x [y0, y0+size): packed
    /// pixels, row-major.
    static func referenceTile(_ frame: DisplayList, x0: Int, y0: Int, size: Int) -> [UInt32] {
        var pixels = [UInt32](repeating: frame.background.opaquePixel, count: size * size)
        for case .draw(let command) in frame.commands {
            guard case .ring(let ring) = command.shape, let circle = ReferenceCircle(command.shape) else { continue }
            // Only rows and columns the ring's bounding box reaches.
            let outer = circle.outer
            let rowStart = max(y0, Int((ring.centerY - outer).rounded(.down)))
            let rowEnd = min(y0 + size, Int((ring.centerY + outer).rounded(.up)))
            let columnStart = max(x0, Int((ring.centerX - outer).rounded(.down)))
            let columnEnd = min(x0 + size, Int((ring.centerX + outer).rounded(.up)))
            guard rowStart < rowEnd, columnStart < columnEnd else { continue }
            let rowRange = rowStart..<rowEnd
            let columnRange = columnStart..<columnEnd
            let color = command.color
            for j in rowRange {
                for i in columnRange {
                    let coverage = circle.coverage(i, j)
                    guard coverage > 0 else { continue }
                    let index = (j - y0) * size + (i - x0)
                    let before = pixels[index]
                    var after: UInt32 = 0xFF00_0000
                    for (shift, channel) in [(16, color.r), (8, color.g), (0, color.b)] {
                        let value = referenceComposite(
                            destination: (before >> UInt32(shift)) & 0xFF, source: channel, alpha: color.a * coverage)
                        after |= value << UInt32(shift)
                    }
                    pixels[index] = after
                }
            }
        }
        return pixels
    }

    /// Mean and largest absolute channel difference (in 1/255 steps) between the kernels' frame
    /// and the reference over four tiles.
    static func compare(_ name: String, recoloured: Bool) throws -> (mean: Double, maximum: Int) {
        var frame = try loadFrame(name)
        if recoloured {
            // The lists' near-white rings on white hide coverage errors; the same geometry in
            // random colours does not.
            var random = SeededRandom(seed: 0x4245_4E43)
            for index in frame.commands.indices {
                guard case .draw(var command) = frame.commands[index] else { continue }
                command.color = Color(
                    r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1), a: command.color.a)
                frame.commands[index] = .draw(command)
            }
        }
        let buffer = PixelBuffer(width: frame.width, height: frame.height)
        render(frame, into: buffer.surface)
        let size = 256
        let tiles = [(0, 0), (frame.width - size, frame.height - size), (832, 412), (1400, 90)]
        var sum = 0
        var count = 0
        var maximum = 0
        for (x0, y0) in tiles {
            let reference = referenceTile(frame, x0: x0, y0: y0, size: size)
            for j in 0..<size {
                for i in 0..<size {
                    let kernel = buffer.surface.pixel(x: x0 + i, y: y0 + j)
                    let expected = reference[j * size + i]
                    for shift: UInt32 in [16, 8, 0] {
                        let difference = abs(Int((kernel >> shift) & 0xFF) - Int((expected >> shift) & 0xFF))
                        sum += difference
                        maximum = max(maximum, difference)
                        count += 1
                    }
                }
            }
        }
        return (Double(sum) / Double(count), maximum)
    }

    @Test(arguments: ["ripples-1000.json", "ripples-60.json"], [false, true])
    func benchListMatchesTheReference(_ name: String, recoloured: Bool) throws {
        let (mean, maximum) = try RingBenchListTests.compare(name, recoloured: recoloured)
        print(
            "\(name)\(recoloured ? " recoloured" : ""): mean channel error \(mean)/255, largest \(maximum)/255 over four 256x256 tiles"
        )
        #expect(mean <= 0.5, "\(name): mean channel error \(mean)/255")
        // A pixel's error can add up over the ~100 ops that cross it (each rounded to 8 bits).
        #expect(maximum <= 8, "\(name): largest channel error \(maximum)/255")
    }
}
