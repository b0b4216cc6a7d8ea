import SwellLoop
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellSystem
import Testing

/// What the management API shows in place of an output's own content (`ManagedContent`): for N
/// seconds, or until the schedule's next change, and then the output's own content again.
@Suite(.serialized) struct ManagedContentTests {
    @Test func aShowForSomeSecondsEndsWithTheOwnContent() throws {
        let scene = SceneContent(
            player: try SceneContentSwitchTests.load("ripples"), name: "ripples", load: SceneContentSwitchTests.load)
        var journal: [String] = []
        let managed = ManagedContent(scene, scene: scene, scheduled: nil, ownContent: "ripples") { journal.append($0) }
        let buffer = PixelBuffer(width: 64, height: 36)
        try managed.show("flow", forSeconds: 5, at: 1, wall: 1000)
        #expect(scene.name == "flow")
        #expect(managed.shownUntil(at: 1, wall: 1000) == 1005)
        #expect(managed.nextWake(after: 2).map { $0 <= 6 } ?? false)
        _ = managed.render(at: 5.9, into: buffer.surface)
        #expect(scene.name == "flow")
        _ = managed.render(at: 6, into: buffer.surface)
        #expect(scene.name == "ripples" && managed.override == nil)
        #expect(journal == ["shows ripples again (the API's time is over)"])
        // A file that does not load: refused, the output goes on.
        #expect(throws: (any Error).self) { try managed.show("no-such-scene", forSeconds: nil, at: 7, wall: 1006) }
        #expect(scene.name == "ripples" && managed.override == nil)
    }

    @Test func withASchedule() throws {
        try OffHoursTests.inZone("UTC") {
            // 10 s before the schedule's 10:00 change to the waves.
            let wall = ScheduledContentTests.Wall(ScheduledContentTests.monday + 10 * ScheduledContentTests.hour - 10)
            let scheduled = try ScheduledContentTests.scheduled(at: wall)
            let managed = ManagedContent(scheduled, scene: scheduled.scene, scheduled: scheduled, ownContent: "wave")
            let buffer = PixelBuffer(width: 64, height: 36)
            _ = managed.render(at: 0, into: buffer.surface)
            #expect(scheduled.scene.name == "ripples")
            // Until the next change: the schedule's waves take over at 10:00.
            try managed.show("elastic", forSeconds: nil, at: 0, wall: wall.now)
            #expect(managed.shownUntil(at: 0, wall: wall.now) == wall.now + 10)
            wall.now += 9
            _ = managed.render(at: 9, into: buffer.surface)
            #expect(scheduled.scene.name == "elastic")
            wall.now += 1
            _ = managed.render(at: 10, into: buffer.surface)
            #expect(scheduled.scene.name == "flow" && managed.override == nil)
            // For 60 s: the schedule's change in between does not cut it short.
            try managed.show("elastic", forSeconds: 60, at: 10, wall: wall.now)
            wall.now += 30
            _ = managed.render(at: 40, into: buffer.surface)
            #expect(scheduled.scene.name == "elastic")
            wall.now += 30
            _ = managed.render(at: 70, into: buffer.surface)
            #expect(scheduled.scene.name == "flow", "the schedule's choice again")
        }
    }
}
