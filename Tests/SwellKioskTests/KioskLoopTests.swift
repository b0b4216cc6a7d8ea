import SwellKiosk
import SwellRaster
import SwellSystem
import Testing

@Test func anIdleSceneShowsOneFrameAndTheLoopRestoresOnTheTimeLimit() throws {
    let presenter = MemoryPresenter(panelWidth: 8, panelHeight: 4)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil)
    var renders = 0
    var shown = 0
    let end = try loop.run(
        seconds: 0.05,
        render: { _, surface in
            renders += 1
            clear(surface, color: Color(r: 1, g: 0, b: 0), clip: surface.bounds)
        },
        isIdle: { _ in true },
        shown: { shown += 1 })
    #expect(end == .timeUp)
    #expect(renders == 1 && presenter.presentedFrames == 1 && shown == 1)
    #expect(presenter.scanoutPixel(x: 7, y: 3) & 0xFFFFFF == 0xFF0000)
    #expect(presenter.restoreCount >= 1)
}

@Test func anAnimatedSceneRendersFramesWithIncreasingTimes() throws {
    // Clock-paced at 200 Hz so the test is quick; the frame count is the limit, not the time.
    let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 4, pacedHz: 200)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil)
    var times: [Double] = []
    let end = try loop.run(maximumFrames: 5, render: { time, _ in times.append(time) }, isIdle: { _ in false })
    #expect(end == .frameLimit)
    #expect(times.count == 5)
    #expect(times.last! - times.first! >= 4 * 0.005 * 0.99, "frames are paced at the refresh interval")
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    #expect(presenter.presentedFrames == times.count)
}

@Test func aSceneThatStopsMovingGetsOneSettledFrameThenTheLoopSleeps() throws {
    let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 4, pacedHz: 200)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil)
    var renders = 0
    // Moving for three frames, then still: the fourth frame shows the settled picture.
    let end = try loop.run(seconds: 0.2, render: { _, _ in renders += 1 }, isIdle: { _ in renders >= 3 })
    #expect(end == .timeUp)
    #expect(renders == 4)
}

@Test func anIdleSceneWakesForItsOwnTimer() throws {
    let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 4)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil)
    let start = monotonicSeconds()
    var renderTimes: [Double] = []
    // Still, with a timer at 0.1 s (after which it is still again): a frame at 0, one at the tick
    // and the settled one after it, then sleep until the time limit.
    let end = try loop.run(
        seconds: 1.0,
        render: { _, _ in renderTimes.append(monotonicSeconds() - start) },
        isIdle: { _ in renderTimes.count != 1 || monotonicSeconds() - start < 0.1 },
        wakeIn: { renderTimes.count == 1 ? 0.1 - (monotonicSeconds() - start) : nil })
    #expect(end == .timeUp)
    #expect(renderTimes.count == 3, "\(renderTimes)")
    #expect(renderTimes.count < 2 || renderTimes[1] >= 0.1, "woken at its timer, not before")
}
