import SwellRaster
import Testing

/// Damage is conservative: every pixel of every rectangle added stays covered, whatever merging
/// the cap forced. Checked against a per-pixel bitmap of what was added.
@Suite struct DamageTests {
    @Test func nestedRectanglesKeepTheOuterOne() {
        var damage = Damage()
        damage.add(ClipRect(x0: 10, y0: 10, x1: 20, y1: 20))
        damage.add(ClipRect(x0: 12, y0: 12, x1: 18, y1: 18))
        #expect(damage.rects == [ClipRect(x0: 10, y0: 10, x1: 20, y1: 20)])
        damage.add(ClipRect(x0: 0, y0: 0, x1: 30, y1: 30))
        #expect(damage.rects == [ClipRect(x0: 0, y0: 0, x1: 30, y1: 30)])
        damage.add(ClipRect(x0: 5, y0: 5, x1: 5, y1: 9))
        #expect(damage.rects.count == 1, "an empty rectangle adds nothing")
    }

    @Test func manyRectanglesStayCoveredWithinTheCap() {
        var generator = SeededRandom(seed: 7)
        for _ in 0..<50 {
            var damage = Damage()
            var added = [Bool](repeating: false, count: 64 * 64)
            for _ in 0..<(1 + Int(generator.next() % 40)) {
                let x0 = Int(generator.next() % 60)
                let y0 = Int(generator.next() % 60)
                let rect = ClipRect(
                    x0: x0, y0: y0, x1: x0 + 1 + Int(generator.next() % 10), y1: y0 + 1 + Int(generator.next() % 10))
                damage.add(rect)
                for y in rect.y0..<min(64, rect.y1) {
                    for x in rect.x0..<min(64, rect.x1) { added[y * 64 + x] = true }
                }
            }
            #expect(damage.rects.count <= Damage.maximumRects)
            for y in 0..<64 {
                for x in 0..<64 where added[y * 64 + x] {
                    let pixel = ClipRect(x0: x, y0: y, x1: x + 1, y1: y + 1)
                    #expect(damage.intersects(pixel), "pixel (\(x), \(y)) was damaged but is not covered")
                }
            }
        }
    }

    @Test func unionIntersectionAndBounds() {
        var damage = Damage([ClipRect(x0: 0, y0: 0, x1: 4, y1: 4)])
        damage.formUnion(Damage([ClipRect(x0: 10, y0: 10, x1: 12, y1: 20)]))
        #expect(damage.bounds == ClipRect(x0: 0, y0: 0, x1: 12, y1: 20))
        #expect(damage.area == 16 + 20)
        damage.formIntersection(ClipRect(x0: 2, y0: 2, x1: 11, y1: 11))
        #expect(damage.rects.count == 2)
        #expect(damage.area == 4 + 1)
        damage.formIntersection(ClipRect(x0: 50, y0: 50, x1: 60, y1: 60))
        #expect(damage.isEmpty)
        #expect(Damage.whole(width: 8, height: 3).area == 24)
    }
}
