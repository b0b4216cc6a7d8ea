import Foundation
import Testing

/// `swell bench --scenes`: every scene file of a folder in one run and one table, with which
/// scenes held the refresh rate. (Timing is never asserted: only what was run and reported.)
@Suite struct BenchCommandTests {
    @Test func scenesRunsEverySceneFileAndReportsEach() throws {
        let folder = try temporaryFolder()
        let results = try temporaryFolder()  // not in the scene folder: it would be read as a scene file
        for name in ["flow", "wave"] {
            try FileManager.default.copyItem(
                atPath: SceneCommandTests.examples + "/\(name).json", toPath: folder + "/\(name).json")
        }
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let run = try SwellProcess.run([
            "bench", "--scenes", folder, "--size", "96x54", "--frames", "4", "--threads", "1", "--json",
            results + "/out.json", "--record-checksums", results + "/sums.txt",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("swell bench: 2 scene files in \(folder) on memory, 4 frames each at 60 Hz"))
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("flow ") || $0.hasPrefix("wave ") }
        #expect(rows.count == 2 && rows.allSatisfy { $0.contains("96x54") })
        #expect(
            run.stdout.contains("every scene held 60 Hz") || run.stdout.contains("frames over the 16.667 ms budget"))
        let json = try String(contentsOfFile: results + "/out.json", encoding: .utf8)
        #expect(json.contains("\"name\": \"flow\"") && json.contains("\"name\": \"wave\""))
        #expect(json.components(separatedBy: "\"frames\": 4,").count - 1 == 6, "render, present and total per scene")
        // The checksums are the scenes' last frames: the same run again gives the same ones.
        let again = try SwellProcess.run([
            "bench", "--scenes", folder, "--size", "96x54", "--frames", "4", "--threads", "1", "--expect-checksums",
            results + "/sums.txt",
        ])
        #expect(again.status == 0 && again.stdout.contains("checksums: all 2 frames match"), "\(again.stderr)")
    }

    @Test func scenesRefusesBadFoldersAndMixedInputs() throws {
        let empty = try temporaryFolder()
        let none = try SwellProcess.run(["bench", "--scenes", empty, "--frames", "1"])
        #expect(none.status == 66 && none.stderr.contains("no *.json scene files"))
        let mixed = try SwellProcess.run(["bench", "ripples", "--scenes", empty])
        #expect(mixed.status == 64 && mixed.stderr.contains("--scenes"))
        try Data("{\"scene\": \"wave\", \"parameters\": {\"amplitude\": \"big\"}}".utf8).write(
            to: URL(fileURLWithPath: empty + "/bad.json"))
        let bad = try SwellProcess.run(["bench", "--scenes", empty, "--frames", "1"])
        #expect(bad.status == 65 && bad.stderr.contains("bad.json"), "a broken file stops the run before it starts")
    }
}
