import SwellText
import Testing

/// The accumulator adds lines eight at a time in SIMD lanes (`addPending`) and flattens
/// quadratics eight points at a time; every cell must hold the bits that adding the same lines
/// one at a time in scalar code gives (`addLineAlone`, `quadAlone`), so glyph masks keep their
/// bytes. Lines of every kind: short ones inside a row, ones crossing two rows or many, nearly
/// horizontal ones across many cells, vertical ones on whole x, horizontal ones, ones on or past
/// the mask's edges (clamped), curves of up to 256 chords, and queues longer than a batch.
@Suite struct MaskAccumulatorTests {
    @Test(arguments: [(1, 1), (3, 17), (17, 3), (40, 37), (211, 97)])
    func batchedLinesGiveTheScalarCells(width: Int, height: Int) {
        var random = SystemRandomNumberGenerator()
        var batched = MaskAccumulator()
        var alone = MaskAccumulator()
        defer {
            batched.free()
            alone.free()
        }
        let w = Double(width)
        let h = Double(height)
        func inside() -> (Double, Double) {
            (Double.random(in: 0...w, using: &random), Double.random(in: 0...h, using: &random))
        }
        func jitter(_ v: Double, _ by: Double) -> Double { v + Double.random(in: -by...by, using: &random) }
        for round in 0..<60 {
            batched.reset(width: width, height: height)
            alone.reset(width: width, height: height)
            let start = inside()
            // Not `move`, which would close the last round's outline.
            batched.currentX = start.0
            batched.currentY = start.1
            alone.currentX = start.0
            alone.currentY = start.1
            for _ in 0..<(round * 37 % 900 + 1) {
                let (x, y) = (batched.currentX, batched.currentY)
                let (px, py) = inside()
                let next: (Double, Double)
                switch Int.random(in: 0..<9, using: &random) {
                case 0: next = (jitter(x, 0.6), jitter(y, 0.6))
                case 1: next = (x.rounded(), py)
                case 2: next = (px, y)
                case 3: next = (jitter(px, 2), jitter(py, 2))
                case 4: next = (px, jitter(y, 0.2))
                case 5: next = (Bool.random(using: &random) ? 0 : w, py)
                case 6: next = (px, Double(Int.random(in: 0...height, using: &random)))
                case 7:
                    let control = inside()
                    batched.quad(control.0, control.1, px, py)
                    alone.quadAlone(control.0, control.1, px, py)
                    continue
                default: next = (px, py)
                }
                batched.line(next.0, next.1)
                alone.addLineAlone(x, y, next.0, next.1)
                alone.currentX = next.0
                alone.currentY = next.1
            }
            batched.flush()
            var differing = 0
            for i in 0..<(width * height + width) where batched.cells[i].bitPattern != alone.cells[i].bitPattern {
                differing += 1
            }
            #expect(differing == 0, "round \(round): \(differing) cells differ")
        }
    }
}
