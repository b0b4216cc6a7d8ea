import Foundation
import Testing

/// `swell run --kiosk FILE` and `--check` as an owner runs them: the shipped example checks out,
/// a bad file lists every problem (exit 65), and a kiosk file on the memory driver runs as the
/// same command line does.
@Suite struct KioskFileCommandTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples").standardized.path

    /// Writes `text` to a fresh folder's kiosk.json and returns its path.
    static func kioskFile(_ text: String) throws -> String {
        let folder = NSTemporaryDirectory() + "swell-kiosk-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/kiosk.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theShippedExampleChecksOut() throws {
        let run = try SwellProcess.run(["run", "--kiosk", Self.examples + "/kiosk.json", "--check"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("is a valid kiosk file: HDMI-A-1 shows"), "\(run.stdout)")
        #expect(run.stdout.contains("off 22:00-07:00 local time"), "\(run.stdout)")
    }

    @Test func aBadFileListsEveryProblemWithItsPath() throws {
        let path = try Self.kioskFile(
            #"{"format": "kiosk/1", "outputs": [{"content": "ripples", "rotate": 45}], "threads": 0, "colour": 1}"#)
        let run = try SwellProcess.run(["run", "--kiosk", path, "--check"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("3 problems"), "\(run.stderr)")
        #expect(run.stderr.contains("$.colour: unknown member"), "\(run.stderr)")
        #expect(run.stderr.contains("$.outputs[0].rotate: expected 0, 90, 180 or 270"), "\(run.stderr)")
        #expect(run.stderr.contains("$.threads: "), "\(run.stderr)")
    }

    @Test func aSceneThatDoesNotLoadFailsTheCheck() throws {
        let path = try Self.kioskFile(#"{"format": "kiosk/1", "outputs": [{"content": "missing.json"}]}"#)
        let run = try SwellProcess.run(["run", "--kiosk", path, "--check"])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("missing.json: cannot read"), "\(run.stderr)")
    }

    @Test func optionsBesideAKioskFileAreAUsageError() throws {
        let run = try SwellProcess.run(["run", "--kiosk", "kiosk.json", "--rotate", "90"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--rotate: the kiosk file kiosk.json says what to run"), "\(run.stderr)")
        let check = try SwellProcess.run(["run", "ripples", "--check"])
        #expect(check.status == 64, "\(check.stderr)")
        #expect(check.stderr.contains("--check validates a kiosk file"), "\(check.stderr)")
    }

    /// The memory driver runs a kiosk file as `--output memory` runs its command line: the same
    /// lines, and the night hours said (the memory panel cannot power down, and says so).
    @Test func aKioskFileRunsOnTheMemoryDriver() throws {
        let path = try Self.kioskFile(
            """
            {"format": "kiosk/1", "driver": "memory", "size": "320x180",
             "outputs": [{"content": "\(Self.examples)/menu.json"}],
             "power": {"offHours": {"from": "00:00", "to": "23:59"}}}
            """)
        let run = try SwellProcess.run(["run", "--kiosk", path, "--seconds", "0.3"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("swell: running menu.json on memory memory 320x180@60 (memory)"), "\(run.stdout)")
        #expect(run.stdout.contains(" frames in "), "\(run.stdout)")
        #expect(run.stderr.contains("cannot be turned off; the picture stays"), "\(run.stderr)")
        let shorthand = try SwellProcess.run([
            "run", "\(Self.examples)/menu.json", "--output", "memory", "--size", "320x180", "--seconds", "0.3",
        ])
        #expect(shorthand.status == 0, "\(shorthand.stderr)")
        #expect(shorthand.stdout.contains("swell: running menu.json on memory memory 320x180@60 (memory)"))
    }
}
