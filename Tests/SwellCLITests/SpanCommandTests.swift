import Foundation
import Testing

/// `swell run --span` and `--touch`: the values refused as usage errors (exit 64, one line
/// naming the option and the fix) before any display is taken. (The span itself is tested with
/// memory presenters in SpanSeamTests and on two QEMU heads by scripts/test-kiosk.)
@Suite struct SpanCommandTests {
    static let refused: [(arguments: [String], message: String)] = [
        (["ripples", "--bezel", "40"], "--bezel goes with --span A,B"),
        (["ripples", "--span-at", "A=0,0"], "--span-at goes with --span A,B"),
        (["ripples", "--span", "Virtual-1"], "--span wants two or more connector names"),
        (["ripples", "--span", "Virtual-1,,Virtual-2"], "--span wants two or more connector names"),
        (["ripples", "--span", "Virtual-1,virtual-1"], "--span names Virtual-1 twice"),
        (
            ["ripples", "--span", "A,B", "--span-layout", "diagonal"],
            "--span-layout wants row or column, not 'diagonal'"
        ),
        (["ripples", "--span", "A,B", "--bezel", "-3"], "--bezel"),
        (["ripples", "--span", "A,B", "--span-at", "A=0"], "--span-at wants NAME=X,Y"),
        (["ripples", "--span", "A,B", "--span-at", "A=-1,0"], "--span-at wants NAME=X,Y"),
        (["ripples", "--span", "A,B", "--span-at", "A=0,0", "--span-layout", "row"], "leave --span-layout out"),
        (["ripples", "--span", "A,B", "--connector", "A"], "it goes without --connector"),
        (["ripples", "--span", "A,B", "--canvas", "100x100", "--viewport", "0,0,10,10"], "it goes without --canvas"),
        (["ripples", "--span", "A,B", "--output", "memory"], "leave --output fbdev/memory out"),
        (["--span", "A,B"], "give one scene name or scene file"),
        (
            ["ripples", "--span", "A,B", "--touch", "/dev/input/event2=C"],
            "--touch /dev/input/event2=C: C is not an output of this run (it drives A, B)"
        ),
        (
            ["ripples", "--span", "A,B", "--touch", "Tablet=A", "--touch", "Tablet=B"],
            "--touch: Tablet is given 2 outputs (A, B); one device touches one output"
        ),
        (["ripples", "--span", "A,B", "--touch", "/dev/input/event2"], "--touch wants DEVICE=OUTPUT"),
        (["ripples", "--span", "A,B", "--touch", "=A"], "a device (its /dev/input path or name"),
        (["ripples", "--span", "A,B", "--touch", "/dev/input/event2="], "the output must be a connector name"),
        (["ripples", "--span", "A,B", "--touch-matrix", "1,2"], "--touch-matrix wants six numbers"),
        (
            ["ripples", "--span", "A,B", "--touch-matrix", "0,1,0,1,0,0", "--touch-matrix", "1,0,0,0,1,0"],
            "--touch-matrix is given twice for every device"
        ),
    ]

    @Test(arguments: refused.indices)
    func aBadValueIsAUsageError(index: Int) throws {
        let (arguments, message) = Self.refused[index]
        let run = try SwellProcess.run(["run"] + arguments + ["--seconds", "0"])
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
    }
}
