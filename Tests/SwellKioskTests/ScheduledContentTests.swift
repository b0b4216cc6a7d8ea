import SwellLoop
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellSystem
import Testing

/// An output's content as its schedule chooses it (`ScheduledContent`), on a wall clock the test
/// sets: the change is taken up at the window's edge and not before, a content is dated from its
/// window's start, "off" windows are the output's hours, and a new schedule applies at once.
@Suite(.serialized) struct ScheduledContentTests {
    static let monday = ScheduleTests.monday
    static let hour = ScheduleTests.hour

    /// Flowing waves 10:00–11:00 every day, the wave at night (off), the pond otherwise.
    static let schedule = #"""
        {"format": "schedule/1", "default": "ripples", "rules": [
          {"name": "waves", "days": "daily", "from": "10:00", "to": "11:00", "content": "flow"},
          {"name": "night", "days": "daily", "from": "22:00", "to": "06:00", "crossesMidnight": true, "content": "off"}]}
        """#

    final class Wall {
        var now: Double
        var journal: [String] = []
        init(_ now: Double) { self.now = now }
    }

    static func scheduled(at wall: Wall, _ text: String = schedule) throws -> ScheduledContent {
        let schedule = try ScheduleTests.parse(text)
        let first = ScheduledContent.content(
            of: ScheduledContent.look(schedule, nil, at: wall.now).decision, schedule: schedule, ownContent: "wave")
        let scene = SceneContent(
            player: try SceneContentSwitchTests.load(first), name: first, load: SceneContentSwitchTests.load)
        return ScheduledContent(
            scene: scene, schedule: schedule, output: nil, ownContent: "wave", wallTime: { wall.now },
            journal: { wall.journal.append($0) })
    }

    @Test func theContentChangesAtTheWindowsEdgeAndTheLoopSleepsUntilThen() throws {
        try OffHoursTests.inZone("UTC") {
            let wall = Wall(Self.monday + 10 * Self.hour - 10)
            let content = try Self.scheduled(at: wall)
            #expect(content.scene.name == "ripples", "the default before 10:00")
            let buffer = PixelBuffer(width: 64, height: 36)
            _ = content.render(at: 0, into: buffer.surface)
            // An untouched pond is idle: the loop sleeps until the change, 10 s away.
            #expect(content.isIdle(at: 1))
            #expect(content.nextWake(after: 1) == 11)
            wall.now += 9.5
            #expect(content.isIdle(at: 9.5) && content.scene.name == "ripples", "not before 10:00")
            wall.now += 0.5
            #expect(!content.isIdle(at: 10), "10:00: the waves, not drawn yet")
            #expect(content.scene.name == "flow" && content.decision?.rule == "waves")
        }
    }

    /// Taken up mid-window, a content shows what it would had it run since the window opened.
    @Test func aContentIsDatedFromItsWindowsStart() throws {
        try OffHoursTests.inZone("UTC") {
            // Half a second into a wave's 2 s period: time 0 looks different.
            let wall = Wall(Self.monday + 10.5 * Self.hour + 0.5)
            let content = try Self.scheduled(at: wall)
            let shown = PixelBuffer(width: 96, height: 54)
            _ = content.render(at: 0, into: shown.surface)
            let reference = PixelBuffer(width: 96, height: 54)
            try SceneContentSwitchTests.load("flow").render(at: 1800.5, into: reference.surface)
            let early = PixelBuffer(width: 96, height: 54)
            try SceneContentSwitchTests.load("flow").render(at: 0, into: early.surface)
            let thirtyMinutes = shown.packedBytes() == reference.packedBytes()
            let atZero = shown.packedBytes() == early.packedBytes()
            #expect(thirtyMinutes, "30 min into the window")
            #expect(!atZero, "the waves flow: time 0 looks different")
        }
    }

    @Test func offWindowsAreTheOutputsHoursAndTheJournalSaysWhy() throws {
        try OffHoursTests.inZone("UTC") {
            let wall = Wall(Self.monday + 21 * Self.hour)
            let content = try Self.scheduled(at: wall)
            let night = content.state(at: Self.monday + 23 * Self.hour)
            #expect(night.off && night.next == Self.monday + 30 * Self.hour, "off until 06:00")
            #expect(content.state(at: Self.monday + 21 * Self.hour) == (false, Self.monday + 22 * Self.hour))
            #expect(
                content.change(off: true, at: Self.monday + 23 * Self.hour)
                    == "screen off (the schedule: rule \"night\" until 2026-12-08 06:00); SIGUSR2 turns it on")
            // Tuesday's 10:00 change is journaled once, with its rule and end.
            wall.now = Self.monday + 34 * Self.hour
            _ = content.isIdle(at: 1)
            _ = content.isIdle(at: 2)
            #expect(wall.journal == ["shows flow (rule \"waves\" until 2026-12-08 11:00)"])
        }
    }

    @Test func aNewScheduleAppliesAtTheNextRoundAndASetBackClockLooksAgain() throws {
        try OffHoursTests.inZone("UTC") {
            let wall = Wall(Self.monday + 10.5 * Self.hour)
            let content = try Self.scheduled(at: wall)
            #expect(content.scene.name == "flow")
            let all = try ScheduleTests.parse(
                #"{"format": "schedule/1", "rules": [{"name": "all day", "days": "daily", "content": "wave"}]}"#)
            content.use(all, ownContent: "ripples")
            _ = content.isIdle(at: 1)
            #expect(content.scene.name == "wave" && content.decision?.rule == "all day")
            content.use(try ScheduleTests.parse(Self.schedule), ownContent: "wave")
            _ = content.isIdle(at: 2)
            #expect(content.scene.name == "flow")
            // The clock set back to 09:00 (within the same "until"): looked at again, the default.
            wall.now = Self.monday + 9 * Self.hour
            _ = content.isIdle(at: 3)
            #expect(content.scene.name == "ripples" && content.decision?.rule == nil, "the default")
        }
    }
}
