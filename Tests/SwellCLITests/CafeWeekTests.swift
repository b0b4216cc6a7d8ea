import Foundation
import Testing

/// A day in the life of a signage screen, a week of it: the café example (examples/cafe/kiosk.json:
/// breakfast and lunch menus, a promotions playlist between, dark at night, Easter Sunday's holiday
/// page) dumped at every hour of the week of 22 March 2027, Europe/Berlin, whose Sunday night the
/// clocks go forward. Each frame's local time, content and checksum are the golden
/// (Goldens/cafe-week.txt); the schedule's choices are also checked on their own.
///
/// To re-record after an intended change of pixels or of the example:
/// `SWELL_RECORD_GOLDENS=1 swift test -c release --filter CafeWeekTests`, then look at the frames
/// (`swell dump examples/cafe/kiosk.json --at "2027-03-22 00:00" --every 3600 --frames 0..167
/// --size 192x108 -o DIR --png`) and commit the golden with the change.
@Suite struct CafeWeekTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Goldens/cafe-week.txt").path
    static let kiosk = KioskFileCommandTests.examples + "/cafe/kiosk.json"

    struct Frame: Equatable {
        let local: String
        let shows: String
        let checksum: String
        let file: String

        /// "2027-03-22 07:00 Mon CET  breakfast.json  fnv1a64:…"
        var line: String { "\(local)  \(shows)  \(checksum)" }
    }

    /// The week's frames, from a dump of `frames` (frame n at Monday 00:00 CET plus n hours), at
    /// 960x540, where the menus' text and clocks show.
    static func dump(frames: String, into folder: String) throws -> [Frame] {
        let run = try SwellProcess.run([
            "dump", kiosk, "--at", "2027-03-22 00:00", "--every", "3600", "--frames", frames, "--size", "960x540",
            "-o", folder,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))
        let manifest = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require(manifest["frames"] as? [[String: Any]])
        return try entries.map { entry in
            let shows = try #require(entry["shows"] as? String)
            return Frame(
                local: try #require(entry["local"] as? String),
                shows: shows.split(separator: "/").last.map(String.init) ?? shows,
                checksum: try #require(entry["checksum"] as? String), file: try #require(entry["file"] as? String))
        }
    }

    @Test func aWeekOfHoursIsTheGoldenAndWhatTheScheduleSays() throws {
        // A day at a time, its 2 MB frames removed after each (the night's black one kept).
        var week: [Frame] = []
        var nightFrame: [UInt8] = []
        for day in 0..<7 {
            let folder = try temporaryFolder()
            let frames = try Self.dump(frames: "\(day * 24)..\(day * 24 + 23)", into: folder)
            if day == 0, let night = frames.first(where: { $0.local.hasPrefix("2027-03-22 23:00") }) {
                nightFrame = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + night.file)))
            }
            week += frames
            try FileManager.default.removeItem(atPath: folder)
        }
        try #require(week.count == 168)
        // What the schedule says, on its own: Monday 08:00 breakfast, 12:00 lunch, 16:00 the
        // playlist, 23:00 dark (a black frame); Saturday 11:00 breakfast still (weekend hours).
        func at(_ local: String) -> Frame? { week.first { $0.local.hasPrefix(local) } }
        #expect(at("2027-03-22 08:00")?.shows == "breakfast.json")
        #expect(at("2027-03-22 12:00")?.shows == "lunch.json")
        #expect(at("2027-03-22 16:00")?.shows == "promotions.json")
        #expect(at("2027-03-27 11:00")?.shows == "breakfast.json")
        #expect(at("2027-03-22 23:00")?.shows == "off")
        #expect(nightFrame.count == 960 * 540 * 4 && nightFrame.allSatisfy { $0 == 0 }, "a dark screen")
        // Easter Sunday: the holiday page all day, over the weekend's rules. The clocks go
        // forward that night: 02:00 never happens, and the hour after 01:00 CET is 03:00 CEST.
        #expect(at("2027-03-28 12:00")?.shows == "holiday.json")
        #expect(at("2027-03-28 02:00") == nil)
        #expect(at("2027-03-28 03:00")?.local == "2027-03-28 03:00 Sun CEST")
        #expect(Set(week.map(\.checksum)).count > 20, "the menus' clocks and the holiday page's make hours differ")

        let lines = week.map(\.line)
        if getenv("SWELL_RECORD_GOLDENS") != nil {
            try (lines.joined(separator: "\n") + "\n").write(toFile: Self.golden, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOfFile: Self.golden, encoding: .utf8).split(separator: "\n").map(String.init)
        let differing = zip(lines, recorded).filter { $0 != $1 }
        #expect(
            recorded.count == lines.count && differing.isEmpty,
            "frames that differ from Goldens/cafe-week.txt (now, then): \(differing.prefix(5))")
    }

    /// The same hours give the same bytes on another run, the dump started elsewhere in the week.
    @Test func anHourIsTheSameBytesWhateverCameBefore() throws {
        let whole = try Self.dump(frames: "30..40", into: try temporaryFolder())
        let alone = try Self.dump(frames: "36..36", into: try temporaryFolder())
        #expect(alone.first == whole.first { $0.local == alone.first?.local }, "Tuesday 12:00")
    }
}
