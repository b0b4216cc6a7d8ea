import SwellOutput
import SwellRaster
import SwellScenes

/// The ripple counter's cost: a 1080p pond at its cap (1000 rings) rendered whole, with and
/// without "Ripples: 1000" drawn, the two frames interleaved in one process so load from other
/// processes falls on both; then the counted pond's allocations per frame (its count unchanged,
/// so its line and masks are cached and nothing may allocate). Issue 19 asks for at most 2 %.
func measureCounter(build: String, plan: MeasurePlan, counter: AllocationCounter?) -> [Record] {
    let plain = pondPlayer(metrics: false)
    let counted = pondPlayer(metrics: true)
    let buffer = PixelBuffer(width: 1920, height: 1080)
    var time = 1.0
    func frame(_ player: ScenePlayer) -> Double {
        time += 1.0 / 240  // every ring grows; none expires (the lifetime is 14 s)
        let start = monotonicNanoseconds()
        player.render(at: time, into: buffer.surface)
        return Double(monotonicNanoseconds() - start) / 1e6
    }
    for _ in 0..<max(plan.warmupFrames, 1) {
        _ = frame(plain)
        _ = frame(counted)
    }
    var plainTimes = FrameTimes()
    var countedTimes = FrameTimes()
    for _ in 0..<plan.frames {
        plainTimes.append(milliseconds: frame(plain))
        countedTimes.append(milliseconds: frame(counted))
    }
    let name = "ripples-1000-counter"
    let extra = (countedTimes.median / plainTimes.median - 1) * 100
    printError(
        "[\(build)] \(name): pond \(formatMs(plainTimes.median)) ms, with the counter "
            + "\(formatMs(countedTimes.median)) ms (\(formatFixed(extra, digits: 1)) %) over \(plan.frames) frames each"
    )
    let frames = plan.allocationFrames
    let calls = counter?.countAllocations {
        for _ in 0..<frames { _ = frame(counted) }
    }
    if let calls { printError("[\(build)] \(name): allocations per frame: \(formatPerFrame(calls, frames))") }
    return [.allocations(build: build, list: name, calls: calls, frames: frames)]
}

/// A whole-frame player of the default pond filled to its 1000-ripple cap.
private func pondPlayer(metrics: Bool) -> ScenePlayer {
    let settings = SceneSettings(specs: RipplesScene.descriptor.parameters, overrides: ["metrics": .bool(metrics)])
    let player = ScenePlayer(layers: [RipplesScene(settings)])
    player.tracksDamage = false
    for k in 0..<1000 {
        let x = Double((k * 389) % 1920)
        let y = Double((k * 257) % 1080)
        player.handle(TouchEvent(.began, finger: k, x: x, y: y, time: 0))
        player.handle(TouchEvent(.ended, finger: k, x: x, y: y, time: 0))
    }
    return player
}
