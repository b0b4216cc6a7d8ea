import CFreeType
import SwellDrawList
import SwellRaster
import SwellText
import Testing

/// text-page.json's 71 text ops (its wave fills left out) against the exact reference: every
/// glyph's FreeType outline at the same quarter-pixel origin, filled by `referencePathCoverage`,
/// composited glyph by glyph in `Double` and rounded. Bound from issue 19: a mean channel error
/// of at most 0.5/255 over the pixels the text touches.
struct TextPageAccuracyTests {
    @Test func textPageMatchesTheExactReference() throws {
        var list = try loadDrawListDocument(path: benchDataPath("text-page"))
        let typesetter = try #require(list.typesetter)
        list.frame.commands = list.frame.commands.filter {
            if case .draw(let command) = $0, case .glyphs = command.shape { return true }
            return false
        }
        let frame = list.frame
        let swell = PixelBuffer(width: frame.width, height: frame.height)
        render(frame, into: swell.surface)

        var library: FT_Library?
        FT_Init_FreeType(&library)
        defer { FT_Done_FreeType(library) }
        var faces: [String: FT_Face] = [:]
        let outline = GlyphAccuracyTests.ReferenceOutline()
        let w = frame.width
        let h = frame.height
        let bg = frame.background
        var red = [Double](repeating: bg.r * 255, count: w * h)
        var green = [Double](repeating: bg.g * 255, count: w * h)
        var blue = [Double](repeating: bg.b * 255, count: w * h)
        var touched = [Bool](repeating: false, count: w * h)
        // One reference per distinct mask (font, glyph, size, quarter-pixel phase).
        var references: [String: (left: Int, top: Int, map: CoverageMap)] = [:]
        for op in list.texts {
            let color = op.command.color
            let line = typesetter.shape(op.text, font: op.font, features: op.features)
            for g in line.glyphs {
                let qx = ((op.x + g.x * op.size) * 4).rounded()
                let qy = ((op.y - g.y * op.size) * 4).rounded()
                let px = Int(qx) >> 2
                let py = Int(qy) >> 2
                let key = "\(g.font.file) \(g.glyph) \(op.size) \(Int(qx) & 3) \(Int(qy) & 3)"
                if references[key] == nil {
                    if faces[g.font.file] == nil {
                        var face: FT_Face?
                        #expect(FT_New_Face(library, g.font.file, 0, &face) == 0)
                        faces[g.font.file] = face
                    }
                    let fx = Double(Int(qx) & 3) / 4
                    let fy = Double(Int(qy) & 3) / 4
                    // A box around the outline at the origin (fx, fy), from its points.
                    let path = outline.load(faces[g.font.file]!, g.glyph, size: op.size, ox: fx, oy: fy)
                    var x0 = Double.infinity
                    var y0 = Double.infinity
                    for e in path.elements {
                        switch e {
                        case .move(let x, let y), .line(let x, let y): (x0, y0) = (min(x0, x), min(y0, y))
                        case .quad(let cx, let cy, let x, let y): (x0, y0) = (min(x0, x, cx), min(y0, y, cy))
                        case .close: break
                        }
                    }
                    guard x0.isFinite else {
                        references[key] = (0, 0, CoverageMap(width: 0, height: 0, values: []))
                        continue
                    }
                    let left = Int(x0.rounded(.down)) - 1
                    let top = Int(y0.rounded(.down)) - 1
                    let size = Int(op.size * 2) + 4
                    let shifted = outline.load(
                        faces[g.font.file]!, g.glyph, size: op.size, ox: fx - Double(left), oy: fy - Double(top))
                    references[key] = (
                        left, top, referencePathCoverage(shifted, width: size, height: size, subRows: 128)
                    )
                }
                let r = references[key]!
                for j in 0..<r.map.height {
                    for i in 0..<r.map.width {
                        let c = r.map.values[j * r.map.width + i]
                        let x = px + r.left + i
                        let y = py + r.top + j
                        guard c > 0, x >= 0, y >= 0, x < w, y < h else { continue }
                        let a = color.a * min(c, 1)
                        let k = y * w + x
                        red[k] += (color.r * 255 - red[k]) * a
                        green[k] += (color.g * 255 - green[k]) * a
                        blue[k] += (color.b * 255 - blue[k]) * a
                        touched[k] = true
                    }
                }
            }
        }
        for face in faces.values { FT_Done_Face(face) }
        var sum = 0.0
        var count = 0
        var worst = 0.0
        for y in 0..<h {
            let row = swell.surface.row(y)
            for x in 0..<w where touched[y * w + x] {
                let p = row[x]
                let k = y * w + x
                for (value, exact) in [(p >> 16 & 0xFF, red[k]), (p >> 8 & 0xFF, green[k]), (p & 0xFF, blue[k])] {
                    let error = abs(Double(value) - exact.rounded())
                    sum += error
                    worst = max(worst, error)
                    count += 1
                }
            }
        }
        let mean = sum / Double(max(count, 1))
        #expect(count > 100_000, "\(count) channels touched")
        #expect(mean <= 0.5, "mean channel error \(mean)/255 over \(count / 3) pixels, worst \(worst)/255")
        print("text-page: mean channel error \(mean)/255 over \(count / 3) text pixels, worst \(worst)/255")
    }
}
