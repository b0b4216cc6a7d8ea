import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import SwellSystem
import Testing

/// Content made of closures, for the loop's tests (the commands' contents are classes of their own).
final class TestContent: KioskContent {
    let renderBody: (Double, PixelSurface) -> Damage
    let idle: (Double) -> Bool
    let wake: (Double) -> Double?
    let changed: (Double) -> Void
    private(set) var shownCount = 0

    init(
        idle: @escaping (Double) -> Bool = { _ in false }, wake: @escaping (Double) -> Double? = { _ in nil },
        changed: @escaping (Double) -> Void = { _ in }, render: @escaping (Double, PixelSurface) -> Void
    ) {
        self.idle = idle
        self.wake = wake
        self.changed = changed
        renderBody = { time, surface in
            render(time, surface)
            return .whole(width: surface.width, height: surface.height)
        }
    }

    private init(idle: @escaping (Double) -> Bool, damaging: @escaping (Double, PixelSurface) -> Damage) {
        self.idle = idle
        wake = { _ in nil }
        changed = { _ in }
        renderBody = damaging
    }

    /// Content whose frames return `damage`'s damage rather than whole.
    static func damaging(idle: @escaping (Double) -> Bool, damage: @escaping (Double, PixelSurface) -> Damage)
        -> TestContent
    {
        TestContent(idle: idle, damaging: damage)
    }

    func render(at time: Double, into surface: PixelSurface) -> Damage { renderBody(time, surface) }
    func isIdle(at time: Double) -> Bool { idle(time) }
    func nextWake(after time: Double) -> Double? { wake(time) }
    func fileChanged(at time: Double) { changed(time) }
    func shown() { shownCount += 1 }
}

@Test func anIdleSceneShowsOneFrameAndTheLoopRestoresOnTheTimeLimit() throws {
    let presenter = MemoryPresenter(panelWidth: 8, panelHeight: 4)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil, followsTheMachine: false)
    var renders = 0
    let content = TestContent(
        idle: { _ in true },
        render: { _, surface in
            renders += 1
            clear(surface, color: Color(r: 1, g: 0, b: 0), clip: surface.bounds)
        })
    let end = try loop.run(content, seconds: 0.05)
    #expect(end == .timeUp)
    #expect(renders == 1 && presenter.presentedFrames == 1 && content.shownCount == 1)
    #expect(presenter.scanoutPixel(x: 7, y: 3) & 0xFFFFFF == 0xFF0000)
    #expect(presenter.restoreCount >= 1)
}

@Test func anAnimatedSceneRendersFramesWithIncreasingTimes() throws {
    // Clock-paced at 200 Hz so the test is quick; the frame count is the limit, not the time.
    let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 4, pacedHz: 200)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil, followsTheMachine: false)
    var times: [Double] = []
    let end = try loop.run(TestContent { time, _ in times.append(time) }, maximumFrames: 5)
    #expect(end == .frameLimit)
    #expect(times.count == 5)
    #expect(times.last! - times.first! >= 4 * 0.005 * 0.99, "frames are paced at the refresh interval")
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    #expect(presenter.presentedFrames == times.count)
}

@Test func aSceneThatStopsMovingGetsOneSettledFrameThenTheLoopSleeps() throws {
    let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 4, pacedHz: 200)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil, followsTheMachine: false)
    var renders = 0
    // Moving for three frames, then still: the fourth frame shows the settled picture.
    let end = try loop.run(TestContent(idle: { _ in renders >= 3 }) { _, _ in renders += 1 }, seconds: 0.2)
    #expect(end == .timeUp)
    #expect(renders == 4)
}

@Test func anIdleSceneWakesForItsOwnTimer() throws {
    let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 4)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil, followsTheMachine: false)
    var renderTimes: [Double] = []
    // Still, with a timer at 0.1 s (after which it is still again): a frame at 0, one at the tick
    // and the settled one after it, then sleep until the time limit. Every time is the loop's.
    let content = TestContent(
        idle: { time in renderTimes.count != 1 || time < 0.1 }, wake: { _ in renderTimes.count == 1 ? 0.1 : nil },
        render: { time, _ in renderTimes.append(time) })
    let end = try loop.run(content, seconds: 1.0)
    #expect(end == .timeUp)
    #expect(renderTimes.count == 3, "\(renderTimes)")
    #expect(renderTimes.count < 2 || renderTimes[1] >= 0.1, "woken at its timer, not before")
}

@Test func theLoopPresentsTheContentsDamageAndNothingForAnEmptyOne() throws {
    let presenter = MemoryPresenter(panelWidth: 8, panelHeight: 6, pacedHz: 200)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil, followsTheMachine: false)
    var copied: [Int] = []
    var frames = 0
    let strip = ClipRect(x0: 0, y0: 2, x1: 8, y1: 3)
    // Whole, then a one-row strip, then nothing changed, then the strip again.
    let content = TestContent.damaging(
        idle: { _ in false },
        damage: { _, surface in
            frames += 1
            copied.append(presenter.lastCopiedPixels)
            switch frames {
            case 1: return .whole(width: surface.width, height: surface.height)
            case 3: return Damage()
            default: return Damage([strip])
            }
        })
    let end = try loop.run(content, maximumFrames: 4)
    copied.append(presenter.lastCopiedPixels)
    #expect(end == .frameLimit)
    // copied[n] is what frame n-1 copied.
    #expect(copied.dropFirst() == [48, 8, 0, 8])
    #expect(presenter.presentedFrames == 3, "the frame with empty damage is not presented")
}
