import SwellRaster
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The path fill against the independent analytic reference (ReferencePath.swift).
@Suite struct PathFillAccuracyTests {
    /// A simple closed outline around (cx, cy): vertices at increasing angles (gaps < π),
    /// each edge a line or a quadratic whose control point lies on the ray between its ends.
    /// Every piece stays inside its own angular wedge, so the outline never crosses itself.
    static func randomStarPath(_ random: inout SeededRandom, size: Double) -> Path {
        let cx = random.uniform(-0.1 * size...1.1 * size)
        let cy = random.uniform(-0.1 * size...1.1 * size)
        let count = Int(random.uniform(4...10))
        let scale = random.uniform(3...0.5 * size)
        let rotation = random.uniform(0...6.28)
        var angles: [Double] = []
        var radii: [Double] = []
        for i in 0..<count {
            angles.append(rotation + 2 * Double.pi * (Double(i) + random.uniform(0...0.4)) / Double(count))
            radii.append(scale * random.uniform(0.2...1))
        }
        if random.uniform(0...1) < 0.5 {
            angles.reverse()
            radii.reverse()
        }
        func point(_ angle: Double, _ radius: Double) -> (Double, Double) {
            (cx + radius * cos(angle), cy + radius * sin(angle))
        }
        var path = Path()
        let first = point(angles[0], radii[0])
        path.move(to: first.0, first.1)
        for i in 0..<count {
            let next = (i + 1) % count
            var nextAngle = angles[next]
            let end = point(nextAngle, radii[next])
            if random.uniform(0...1) < 0.6 {
                // Unwrap so the mid angle lies between the two ends (the wedge, not its complement).
                while abs(nextAngle - angles[i]) > Double.pi { nextAngle += nextAngle < angles[i] ? 2 * .pi : -2 * .pi }
                let control = point((angles[i] + nextAngle) / 2, scale * random.uniform(0.1...1.8))
                path.quad(control: control.0, control.1, to: end.0, end.1)
            } else {
                path.line(to: end.0, end.1)
            }
        }
        path.close()
        return path
    }

    @Test func randomSimplePathsMatchTheReference() {
        var random = SeededRandom(seed: 41)
        var worst = 0.0
        var worstMean = 0.0
        for index in 0..<300 {
            let path = Self.randomStarPath(&random, size: 48)
            let clip: ClipRect? = index % 5 == 0 ? ClipRect(x0: 7, y0: 3, x1: 40, y1: 37) : nil
            let kernel = CoverageMap.drawnByKernel(.path(path), width: 48, height: 48, clip: clip)
            let reference = referencePathCoverage(path, width: 48, height: 48, clip: clip)
            let error = CoverageError(kernel: kernel, reference: reference)
            worst = max(worst, error.maximum)
            worstMean = max(worstMean, error.meanOverEdges)
            #expect(error.maximum <= 0.05, "path \(index): \(error)")
            #expect(error.meanOverEdges <= 0.005, "path \(index): \(error)")
        }
        // The fill is far better than the bound; a regression to sampling would show here.
        #expect(worst < 0.02, "worst max error \(worst)")
        print("path fill: 300 random paths, worst max error \(worst), worst mean over edges \(worstMean)")
    }

    @Test func holeOfOppositeDirectionStaysEmpty() {
        var path = Path()
        path.move(to: 4.3, 4.6)
        path.line(to: 43.2, 5.1)
        path.line(to: 42.7, 44.4)
        path.line(to: 3.9, 43.8)
        path.close()
        path.move(to: 15.5, 15.25)
        path.line(to: 15.75, 30.5)
        path.quad(control: 24, 36, to: 31.25, 30)
        path.line(to: 30.5, 15.5)
        path.close()
        let kernel = CoverageMap.drawnByKernel(.path(path), width: 48, height: 48)
        let reference = referencePathCoverage(path, width: 48, height: 48)
        let error = CoverageError(kernel: kernel, reference: reference)
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)")
        #expect(kernel[22, 22] == 0)
        #expect(kernel[8, 22] == 1)
    }

    @Test func pixelsWhollyInsideAnOverlapAreFullyCovered() {
        // Two same-direction squares overlapping: winding 2 in the middle, still coverage 1.
        var path = Path()
        path.move(to: 4, 4)
        path.line(to: 30, 4)
        path.line(to: 30, 30)
        path.line(to: 4, 30)
        path.close()
        path.move(to: 16, 16)
        path.line(to: 44, 16)
        path.line(to: 44, 44)
        path.line(to: 16, 44)
        path.close()
        let kernel = CoverageMap.drawnByKernel(.path(path), width: 48, height: 48)
        let reference = referencePathCoverage(path, width: 48, height: 48)
        #expect(CoverageError(kernel: kernel, reference: reference).maximum <= 1.0 / 255)
        #expect(kernel[20, 20] == 1)
    }

    @Test func compositesOverARandomBackgroundWithTheBlendRule() {
        var random = SeededRandom(seed: 5)
        for _ in 0..<20 {
            let path = Self.randomStarPath(&random, size: 40)
            let color = Color(
                r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1), a: random.uniform(0.1...1)
            )
            let background = (0..<(40 * 40)).map { _ in UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000 }
            let reference = referencePathCoverage(path, width: 40, height: 40, subRows: 128)
            let mismatches = compositeMismatches(
                shape: .path(path), color: color, background: background, width: 40, height: 40, reference: reference)
            #expect(mismatches == 0)
        }
    }

    @Test func degenerateAndFarAwayPathsAreSafe() {
        var nanPath = Path()
        nanPath.move(to: 1, 1)
        nanPath.line(to: .nan, 5)
        nanPath.line(to: 9, 9)
        #expect(CoverageMap.drawnByKernel(.path(nanPath), width: 16, height: 16).values.allSatisfy { $0 == 0 })
        var far = Path()
        far.move(to: 1e6, 1e6)
        far.line(to: 1e6 + 50, 1e6)
        far.line(to: 1e6, 1e6 + 50)
        far.close()
        #expect(CoverageMap.drawnByKernel(.path(far), width: 16, height: 16).values.allSatisfy { $0 == 0 })
        // A huge triangle covering the whole surface from far outside.
        var huge = Path()
        huge.move(to: -1e7, -1e7)
        huge.line(to: 3e7, -1e7)
        huge.line(to: -1e7, 3e7)
        huge.close()
        #expect(CoverageMap.drawnByKernel(.path(huge), width: 16, height: 16).values.allSatisfy { $0 == 1 })
        // Absurd coordinates are refused rather than overflowing.
        var absurd = Path()
        absurd.move(to: 1e300, 1e300)
        absurd.line(to: -1e300, 5)
        absurd.line(to: 3, -1e300)
        absurd.close()
        #expect(CoverageMap.drawnByKernel(.path(absurd), width: 8, height: 8).values.allSatisfy { $0 == 0 })
        // Empty path and a path of one point.
        #expect(CoverageMap.drawnByKernel(.path(Path()), width: 8, height: 8).values.allSatisfy { $0 == 0 })
        var dot = Path()
        dot.move(to: 3, 3)
        #expect(CoverageMap.drawnByKernel(.path(dot), width: 8, height: 8).values.allSatisfy { $0 == 0 })
    }

    @Test func wideRowsUseTheConstantTailAndStayExact() {
        // A 300 px wide panel: its interior is filled by the vector loop and the tail span.
        var path = Path()
        path.move(to: 2.5, 3.25)
        path.quad(control: 150, -4, to: 297.5, 3.25)
        path.line(to: 297.5, 36.5)
        path.quad(control: 150, 44, to: 2.5, 36.5)
        path.close()
        let kernel = CoverageMap.drawnByKernel(.path(path), width: 300, height: 40)
        let reference = referencePathCoverage(path, width: 300, height: 40)
        let error = CoverageError(kernel: kernel, reference: reference)
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)")
    }

    @Test func pathsAcrossSeveralTilesMatchTheReference() {
        // 1100 px wide: three column tiles. The top and bottom edges cross every tile boundary;
        // the left edge is a quadratic that goes back on itself in y and lies wholly left of the
        // second and third tiles (where only its end points count); a small hole sits in tile 3.
        var path = Path()
        path.move(to: 20, 4.5)
        path.quad(control: 1050, -6, to: 1080.25, 10)
        path.line(to: 1085.5, 36)
        path.quad(control: 500, 60, to: 30, 30)
        path.quad(control: -20, 45, to: 20, 4.5)
        path.close()
        path.move(to: 1000.5, 15)
        path.line(to: 1000.5, 25.25)
        path.quad(control: 1020, 30, to: 1040, 25)
        path.line(to: 1040, 15)
        path.close()
        let kernel = CoverageMap.drawnByKernel(.path(path), width: 1100, height: 40)
        let reference = referencePathCoverage(path, width: 1100, height: 40, subRows: 128)
        let error = CoverageError(kernel: kernel, reference: reference)
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)")
        #expect(kernel[700, 20] == 1 && kernel[1020, 20] == 0)
        // Clipped to the middle of the second tile only: the same pixels there, nothing outside.
        let clip = ClipRect(x0: 600, y0: 0, x1: 700, y1: 40)
        let clipped = CoverageMap.drawnByKernel(.path(path), width: 1100, height: 40, clip: clip)
        for j in 0..<40 {
            for i in [0, 599, 600, 650, 699, 700, 1099] {
                #expect(clipped[i, j] == (i >= 600 && i < 700 ? kernel[i, j] : 0), "(\(i), \(j))")
            }
        }
    }
}
