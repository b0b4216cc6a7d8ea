import Foundation
import SwellDisplay
import SwellInput
import SwellLoop
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellService
import Testing

/// The kiosk file (`kiosk/1`) as its parser reads it: a plan with every section, and every
/// problem of a bad file in one pass, each naming its JSON path.
@Suite struct KioskFileTests {
    static func parse(_ text: String, name: String = "/etc/swell/kiosk.json") throws(KioskFileError) -> KioskPlan {
        try parseKioskFile(bytes: Array(text.utf8), name: name)
    }

    static func problems(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func everySectionBecomesThePlan() throws {
        let plan = try Self.parse(
            """
            {"format": "kiosk/1",
             "outputs": [{"connector": "HDMI-A-1", "mode": "1920x1080@60", "content": "menu.json"},
                         {"connector": "HDMI-A-2", "rotate": 90, "content": "/srv/promo.json"}],
             "touch": [{"device": "ILITEK", "output": "hdmi-a-2", "matrix": [1, 0, 0.5, 0, 1, 0]},
                       {"matrix": [-1, 0, 1, 0, 1, 0]}],
             "clock": {"source": "realtime", "epoch": "2026-01-01T00:00:00Z", "period": 600},
             "power": {"offHours": {"from": "22:00", "to": "07:00"}, "offAfterIdle": 300},
             "threads": 3, "input": "demo.json"}
            """)
        // Files are relative to the kiosk file's folder.
        #expect(
            plan.layout
                == .outputs([
                    KioskPlan.Output(
                        connector: "HDMI-A-1", mode: ModeRequest(width: 1920, height: 1080, refreshHz: 60),
                        content: "/etc/swell/menu.json"),
                    KioskPlan.Output(connector: "HDMI-A-2", rotation: .clockwise90, content: "/srv/promo.json"),
                ]))
        #expect(plan.touch.routes == [TouchRouting.Request(device: "ILITEK", output: "HDMI-A-2")])
        #expect(plan.touch.calibrations == [.init(device: "ILITEK", matrix: TouchCalibration(1, 0, 0.5, 0, 1, 0))])
        #expect(plan.touch.calibration == TouchCalibration(-1, 0, 1, 0, 1, 0))
        #expect(plan.clock == RealtimeSceneClock(epoch: 1_767_225_600, period: 600))
        #expect(plan.offHours == OffHours(from: 22 * 60, to: 7 * 60))
        #expect(plan.screenOffAfter == 300)
        #expect(plan.threads == 3)
        #expect(plan.script == "/etc/swell/demo.json")
    }

    @Test func aSpanIsOneContentOverItsOutputs() throws {
        let plan = try Self.parse(
            """
            {"format": "kiosk/1", "span": {"outputs": [{"connector": "HDMI-A-1", "at": [0, 0]},
              {"connector": "HDMI-A-2", "rotate": 270, "at": [1960, 0]}], "content": "ripples"}}
            """)
        guard case .span(let span) = plan.layout else {
            Issue.record("not a span: \(plan.layout)")
            return
        }
        #expect(span.content == "ripples", "a built-in scene's name stays a name")
        #expect(span.outputs.map(\.connectorName) == ["HDMI-A-1", "HDMI-A-2"])
        #expect(span.outputs[1].rotation == .clockwise270)
        #expect(
            span.arrangement
                == .positions([.init(name: "HDMI-A-1", x: 0, y: 0), .init(name: "HDMI-A-2", x: 1960, y: 0)]))
    }

    @Test func everyProblemIsOneLineNamingItsPath() {
        let problems = Self.problems(
            """
            {"format": "kiosk/1",
             "outputs": [{"connector": "HDMI-A-1", "content": "a.json", "colour": "red"},
                         {"connector": "hdmi-a-1", "content": "b.json"},
                         {"connector": "HDMI A", "content": "c.json", "rotate": 45}],
             "touch": [{"device": "x", "output": "DP-1"}],
             "clock": "realtime", "power": {"offHours": {"from": "7:00", "to": "22:00"}}, "volume": 3}
            """)
        #expect(
            problems == [
                "$.volume: unknown member; allowed here: format, outputs, span, driver, device, size, touch, clock, "
                    + "power, threads, input, schedule, api, contentFolder",
                "$.outputs[0].colour: unknown member; allowed here: connector, mode, rotate, content, wall",
                "$.outputs[2].connector: \"HDMI A\" is not a connector name such as HDMI-A-1, DP-2 or DSI-1 "
                    + "('swell displays' lists them)",
                "$.outputs[2].rotate: expected 0, 90, 180 or 270 (degrees clockwise)",
                "$.outputs[1]: hdmi-a-1 is already $.outputs[0]: one output shows one content; give each connector once",
                "$.touch[0].output: \"DP-1\" is not an output of this kiosk (HDMI-A-1, hdmi-a-1)",
                "$.clock: expected an object, got \"realtime\"",
                "$.power.offHours.from: expected a local time HH:MM from 00:00 to 23:59, got \"7:00\"",
            ])
    }

    @Test func outputsAndASpanTogetherOrNeitherAreProblems() {
        #expect(
            Self.problems(#"{"format": "kiosk/1"}"#) == [
                "$: missing required member \"outputs\" (or \"span\"): what each display shows"
            ])
        let both = Self.problems(
            """
            {"format": "kiosk/1", "outputs": [{"content": "ripples"}],
             "span": {"outputs": [{"connector": "DP-1"}, {"connector": "DP-2"}], "content": "ripples"}}
            """)
        #expect(both == ["$: give \"outputs\" (each its own content) or \"span\" (one content over them), not both"])
    }

    @Test func aSceneFileIsNotAKioskFile() {
        #expect(
            Self.problems(#"{"layers": [{"scene": "wave"}]}"#) == [
                "$.layers: unknown member; allowed here: format, outputs, span, driver, device, size, touch, clock, "
                    + "power, threads, input, schedule, api, contentFolder",
                "$: missing required member \"format\"",
                "$: missing required member \"outputs\" (or \"span\"): what each display shows",
            ])
    }

    @Test func textThatIsNotJSONIsASyntaxError() {
        do {
            _ = try Self.parse("{\"format\": ")
            Issue.record("parsed")
        } catch {
            #expect(error.isSyntax)
            #expect(error.description.hasPrefix("/etc/swell/kiosk.json: line 1"))
        }
    }

    /// What a changed kiosk file can take up while running: the contents alone.
    @Test func differencesLeaveTheContentsOut() throws {
        let before = try Self.parse(#"{"format": "kiosk/1", "outputs": [{"content": "a.json"}]}"#)
        let newContent = try Self.parse(#"{"format": "kiosk/1", "outputs": [{"content": "b.json"}]}"#)
        let rotated = try Self.parse(
            #"{"format": "kiosk/1", "outputs": [{"content": "b.json", "rotate": 90}], "threads": 2}"#)
        #expect(newContent.differences(from: before).isEmpty)
        #expect(newContent.outputContents == ["/etc/swell/b.json"])
        #expect(rotated.differences(from: before) == ["outputs", "threads"])
    }
}

/// Night hours in a zone with daylight saving time: the boundaries are wall-clock times.
@Suite(.serialized) struct OffHoursTests {
    /// Held while a test runs in a zone: suites run in parallel and TZ is the process's.
    static let zoneLock = NSLock()

    /// Runs `body` with the process's zone set to `zone` (TZ), then puts it back; one test at a
    /// time (every suite that reads local times goes through here).
    static func inZone(_ zone: String, _ body: () throws -> Void) rethrows {
        zoneLock.lock()
        defer { zoneLock.unlock() }
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        try body()
    }

    @Test func aNightAcrossMidnightAndItsChanges() throws {
        let night = try #require(OffHours(from: 22 * 60, to: 7 * 60))
        Self.inZone("UTC") {
            // 2026-12-04 12:00 UTC is day; the next change is 22:00.
            let noon = 1_796_385_600.0
            #expect(night.state(at: noon).off == false)
            #expect(night.state(at: noon).next == noon + 10 * 3600)
            let late = noon + 11 * 3600
            #expect(night.state(at: late).off == true)
            #expect(night.state(at: late).next == noon + 19 * 3600)
            #expect(night.state(at: noon + 19 * 3600).off == false, "07:00 itself is day")
        }
    }

    @Test func theNightTheClocksGoBackIsAnHourLonger() throws {
        let night = try #require(OffHours(from: 22 * 60, to: 7 * 60))
        Self.inZone("Europe/Berlin") {
            // 2026-10-24 22:00 CEST (UTC+2) to 2026-10-25 07:00 CET (UTC+1): ten hours.
            let evening = 1_792_872_000.0  // 2026-10-24T20:00:00Z
            #expect(night.state(at: evening - 1).next == evening)
            #expect(night.state(at: evening).off == true)
            #expect(night.state(at: evening).next - evening == 10 * 3600)
        }
    }

    @Test func theNightTheClocksGoForwardIsAnHourShorter() throws {
        let night = try #require(OffHours(from: 22 * 60, to: 7 * 60))
        Self.inZone("Europe/Berlin") {
            // 2026-03-28 22:00 CET (UTC+1) to 2026-03-29 07:00 CEST (UTC+2): eight hours.
            let evening = 1_774_731_600.0  // 2026-03-28T21:00:00Z
            #expect(night.state(at: evening).off == true)
            #expect(night.state(at: evening).next - evening == 8 * 3600)
        }
    }

    /// A boundary in the hour the clocks skip is the jump itself (as a schedule's window edge).
    @Test func aBoundaryTheClocksSkipIsTheJump() throws {
        let night = try #require(OffHours(from: 2 * 60 + 30, to: 7 * 60))
        Self.inZone("Europe/Berlin") {
            // 2027-03-28: 02:00 CET becomes 03:00 CEST at 01:00Z; 02:30 never shows.
            let jump = 1_806_195_600.0  // 2027-03-28T01:00:00Z
            #expect(night.state(at: jump - 1).off == false)
            #expect(night.state(at: jump - 1).next == jump)
            #expect(night.state(at: jump).off == true)
        }
    }

    @Test func hoursAreParsedAsLocalClockTimes() {
        #expect(OffHours.minutes(parsing: "07:30") == 450)
        #expect(OffHours.minutes(parsing: "24:00") == nil)
        #expect(OffHours.minutes(parsing: "7:30") == nil)
        #expect(OffHours(from: 60, to: 60) == nil)
        #expect(OffHours(from: 22 * 60, to: 7 * 60)?.description == "22:00-07:00")
    }
}

/// The screen's power with night hours: the changes act, a signal in between wins until the next.
@Suite struct NightPowerTests {
    @Test func theNightTurnsTheScreenOffAndTheMorningOn() {
        var power = ScreenPower(offAfter: nil, now: 0)
        #expect(power.change(signal: nil, touched: false, hoursOff: false, now: 0) == nil)
        let off = power.change(signal: nil, touched: false, hoursOff: true, now: 1)
        #expect(off == ScreenPower.Change(on: false, reason: .hours))
        power.applied(off!, made: true)
        #expect(power.state == .offForHours)
        #expect(power.change(signal: nil, touched: true, hoursOff: true, now: 2) == nil, "a touch does not wake it")
        let on = power.change(signal: nil, touched: false, hoursOff: false, now: 3)
        #expect(on == ScreenPower.Change(on: true, reason: .hours))
    }

    @Test func sigusr2AtNightHoldsUntilTheMorning() {
        var power = ScreenPower(offAfter: nil, now: 0)
        power.applied(power.change(signal: nil, touched: false, hoursOff: true, now: 0)!, made: true)
        let on = power.change(signal: true, touched: false, hoursOff: true, now: 1)
        #expect(on == ScreenPower.Change(on: true, reason: .signal))
        power.applied(on!, made: true)
        #expect(power.change(signal: nil, touched: false, hoursOff: true, now: 2) == nil, "still night: no change")
        #expect(power.isOn)
    }
}

/// A scene shown in place of another (a kiosk file's new content) is drawn once even when its
/// output had no event of its own: the change arrives in the first output's round.
@Suite struct SceneContentSwitchTests {
    static func load(_ name: String) throws -> ScenePlayer {
        try loadSceneFile(bytes: Array(#"{"scene": "\#(name)"}"#.utf8), name: name + ".json") { _ in .none }
    }

    @Test func aNewContentIsNotIdleUntilItIsDrawn() throws {
        let content = SceneContent(player: try Self.load("ripples"), name: "ripples", load: Self.load)
        let buffer = PixelBuffer(width: 64, height: 36)
        _ = content.render(at: 0, into: buffer.surface)
        #expect(content.isIdle(at: 1), "an untouched pond is idle")
        try content.show("ripples", at: 2)
        #expect(!content.isIdle(at: 2), "the new pond has not been drawn")
        _ = content.render(at: 2, into: buffer.surface)
        #expect(content.isIdle(at: 3))
        #expect(content.frames == 2)
    }
}
