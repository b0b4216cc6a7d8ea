import SwellRaster
import SwellText
import Testing

/// The glyph compositor masks a clipped glyph's last vector and blends ≤ 8-lane ends 8 wide:
/// any clip (a band, a damage rectangle) must give, inside it, the bytes of the unclipped draw,
/// and leave every pixel outside it as it was.
@Suite struct GlyphClipTests {
    @Test func clippedGlyphRunsMatchTheUnclippedDraw() throws {
        let setter = Typesetter()
        let font = try setter.fonts.font(file: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        var random = SystemRandomNumberGenerator()
        for size in [7.0, 13.5, 17.0, 21.0, 40.0, 90.0] {
            let run = try setter.run(
                "Wavy kiosk menu 0123 AVATAR fiji", font: font, size: size, x: 3.37, y: size * 1.2)
            let command = DrawCommand(.glyphs(run), color: Color(r: 0.8, g: 0.1, b: 0.3, a: 0.9))
            let width = 700
            let height = Int(size * 1.6)
            let whole = PixelBuffer(width: width, height: height)
            clear(whole.surface, color: .white, clip: whole.surface.bounds)
            draw(command, on: whole.surface, within: whole.surface.bounds)
            for _ in 0..<40 {
                let x0 = Int.random(in: 0..<width, using: &random)
                let y0 = Int.random(in: 0..<height, using: &random)
                let clip = ClipRect(
                    x0: x0, y0: y0, x1: Int.random(in: (x0 + 1)...width, using: &random),
                    y1: Int.random(in: (y0 + 1)...height, using: &random))
                let part = PixelBuffer(width: width, height: height)
                clear(part.surface, color: .white, clip: part.surface.bounds)
                draw(command, on: part.surface, within: clip)
                var wrong = 0
                for y in 0..<height {
                    for x in 0..<width {
                        let inside = x >= clip.x0 && x < clip.x1 && y >= clip.y0 && y < clip.y1
                        let expected = inside ? whole.surface.pixel(x: x, y: y) : Color.white.opaquePixel
                        if part.surface.pixel(x: x, y: y) != expected { wrong += 1 }
                    }
                }
                #expect(wrong == 0, "size \(size), clip \(clip): \(wrong) pixels differ")
            }
        }
    }
}
