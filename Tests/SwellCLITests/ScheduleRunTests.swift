import Foundation
import Testing

/// `swell run --kiosk` with a schedule, on the memory driver: what the schedule chooses now is
/// shown from the start, and a rewritten kiosk file's new schedule applies in the same process.
@Suite struct ScheduleRunTests {
    /// A kiosk file whose one rule, all day every day, shows `content` (the default: ripples).
    static func kiosk(ruleShows content: String) -> String {
        """
        {"format": "kiosk/1", "driver": "memory", "size": "320x180", "outputs": [{"content": "wave"}],
         "schedule": {"timeZone": "UTC", "default": "ripples",
           "rules": [{"name": "all day", "days": "daily", "content": "\(content)"}]}}
        """
    }

    /// Waits (at most a minute, for a loaded machine) until `file` holds `text`.
    static func waitFor(_ text: String, in file: String) -> Bool {
        for _ in 0..<1200 {
            if let data = FileManager.default.contents(atPath: file),
                String(decoding: data, as: UTF8.self).contains(text)
            {
                return true
            }
            usleep(50_000)
        }
        return false
    }

    @Test func theScheduleChoosesAndANewOneAppliesWhileRunning() throws {
        let path = try KioskFileCommandTests.kioskFile(Self.kiosk(ruleShows: "flow"))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let out = folder + "/stdout.txt"
        let err = folder + "/stderr.txt"
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SwellProcess.binary)
        process.arguments = ["run", "--kiosk", path, "--seconds", "600"]
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The rule's content, not the output's own ("wave") nor the default.
        #expect(Self.waitFor("swell: running flow on memory", in: out))
        // An editor's save: a new file renamed over the old one.
        try Data(Self.kiosk(ruleShows: "ripples").utf8).write(to: URL(fileURLWithPath: path + ".new"))
        _ = rename(path + ".new", path)
        #expect(Self.waitFor("shows ripples (rule \"all day\")", in: err))
        // SIGTERM ends it (also when the test runner that started it blocks the signal: the
        // kiosk unblocks its stop signals).
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let journal = String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self)
        #expect(journal.contains("\(path) changed: the new schedule applies now"), "\(journal)")
        #expect(!journal.contains("cannot change while running"), "\(journal)")
    }
}
