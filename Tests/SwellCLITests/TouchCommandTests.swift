import Foundation
import SwellOutput
import SwellRaster
import Testing

/// `--touch-matrix` and `touch-test --calibrate` as a user types them (the taps themselves are
/// the virtual kiosk's case: `--output memory` reads no input devices).
@Suite struct TouchCommandTests {
    @Test func calibrateShowsTheFirstCrossWhereItSays() throws {
        let folder = try temporaryFolder()
        let run = try SwellProcess.run([
            "touch-test", "--output", "memory", "--size", "800x640", "--calibrate", "--save", folder + "/cross.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("swell: calibrate: tap the centre of the cross 1 of 4 at x=100 y=80"), "\(run.stdout)")
        let picture = try readPNG(path: folder + "/cross.png")
        var (sumX, sumY, count) = (0.0, 0.0, 0.0)
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture.surface.row(y)[x] & 0xFF_FFFF != 0xFF_FFFF {
                (sumX, sumY, count) = (sumX + Double(x) + 0.5, sumY + Double(y) + 0.5, count + 1)
            }
        }
        #expect(count > 100)
        #expect(
            abs(sumX / count - 100) < 1 && abs(sumY / count - 80) < 1,
            "cross centred at \(sumX / count), \(sumY / count)")
    }

    @Test func badMatricesAndCalibratingOverOneAreUsageErrors() throws {
        let short = try SwellProcess.run(["run", "ripples", "--output", "memory", "--touch-matrix", "1,0,0"])
        #expect(short.status == 64 && short.stderr.contains("--touch-matrix wants six numbers a,b,c,d,e,f"))
        let flat = try SwellProcess.run(["touch-test", "--output", "memory", "--touch-matrix", "1,1,0,1,1,0"])
        #expect(flat.status == 64 && flat.stderr.contains("onto a line"))
        let both = try SwellProcess.run([
            "touch-test", "--output", "memory", "--calibrate", "--touch-matrix", "-1,0,1,0,1,0",
        ])
        #expect(both.status == 64 && both.stderr.contains("leave --touch-matrix out"), "\(both.stderr)")
        let fine = try SwellProcess.run([
            "touch-test", "--output", "memory", "--size", "64x40", "--touch-matrix", "-1 0 1 0 1 0", "--seconds", "0",
        ])
        #expect(fine.status == 0, "\(fine.stderr)")
    }
}
