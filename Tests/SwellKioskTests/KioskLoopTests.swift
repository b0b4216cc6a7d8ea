import SwellKiosk
import SwellRaster
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
