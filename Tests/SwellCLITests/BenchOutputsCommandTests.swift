import Foundation
import Testing

/// `swell bench --display NAME=SCENE …`: several memory outputs presented in turn, each one's
/// frame times, the round of all and one output alone as the reference. (Timing is never
/// asserted: only what was run and reported, and that each output drew its own scene.)
@Suite struct BenchOutputsCommandTests {
    @Test func eachOutputItsRoundAndTheReferenceAreReported() throws {
        let results = try temporaryFolder()
        let run = try SwellProcess.run([
            "bench", "--display", "left=ripples", "--display", "right=wave", "--size", "96x54", "--frames", "6",
            "--threads", "1", "--json", results + "/out.json", "--record-checksums", results + "/sums.txt",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                "swell bench: 2 memory outputs at 96x54 (left=ripples, right=wave), 6 frames at 60 Hz (stepped clock)"))
        for row in ["left=ripples ", "right=wave ", "reference: ripples alone ", "both (one round) "] {
            #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix(row) && $0.contains("96x54") }, "\(row)")
        }
        #expect(run.stdout.contains("the round of 2 outputs against one output alone (interleaved in this run): p50 "))
        let sums = try String(contentsOfFile: results + "/sums.txt", encoding: .utf8)
        let lines = sums.split(separator: "\n")
        // Two outputs with checksums (not the reference), and different scenes give different frames.
        #expect(lines.count == 2 && lines[0].hasPrefix("left=ripples ") && lines[1].hasPrefix("right=wave "))
        #expect(lines[0].split(separator: " ")[1] != lines[1].split(separator: " ")[1])
        let again = try SwellProcess.run([
            "bench", "--display", "left=ripples", "--display", "right=wave", "--size", "96x54", "--frames", "6",
            "--threads", "1", "--expect-checksums", results + "/sums.txt",
        ])
        #expect(again.status == 0 && again.stdout.contains("checksums: all 2 frames match"), "\(again.stderr)")
    }

    @Test func badOutputListsAreUsageErrors() throws {
        let one = try SwellProcess.run(["bench", "--display", "a=ripples", "--frames", "1"])
        #expect(one.status == 64 && one.stderr.contains("two or more outputs"))
        let twice = try SwellProcess.run(["bench", "--display", "a=ripples", "--display", "a=wave", "--frames", "1"])
        #expect(twice.status == 64 && twice.stderr.contains("a is given 2 scenes"))
        let scene = try SwellProcess.run(["bench", "ripples", "--display", "a=ripples", "--display", "b=wave"])
        #expect(scene.status == 64 && scene.stderr.contains("give no SCENE as well"))
        let drm = try SwellProcess.run([
            "bench", "--display", "a=ripples", "--display", "b=wave", "--output", "drm",
        ])
        #expect(drm.status == 64 && drm.stderr.contains("memory outputs"))
    }
}
