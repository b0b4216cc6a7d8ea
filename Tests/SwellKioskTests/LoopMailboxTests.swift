import SwellDisplay
import SwellLoop
import SwellRaster
import SwellSystem
import Testing

/// The management API's way into a running loop: work posted from another thread runs on the
/// loop's thread (waking it from its sleep), the presented frame is copied whole, and once the
/// loop has ended posted work is answered at once.
@Test func anotherThreadChangesTheContentThroughTheMailboxAndReadsThePresentedFrame() throws {
    let presenter = MemoryPresenter(panelWidth: 8, panelHeight: 4)
    let loop = try KioskLoop(presenter: presenter, input: nil, console: nil, followsTheMachine: false)
    let mailbox = try LoopMailbox()
    loop.mailbox = mailbox
    final class State: @unchecked Sendable {
        var wanted = Color(r: 1, g: 0, b: 0)
        var drawn: Color?
        var loopThreadRuns = 0
        var pixels: [UInt32] = []
        var powers: [Bool] = []
    }
    let state = State()
    // Idle once the wanted colour is drawn: the loop sleeps until the mailbox wakes it.
    let content = TestContent(
        idle: { _ in state.drawn == state.wanted },
        render: { _, surface in
            clear(surface, color: state.wanted, clip: surface.bounds)
            state.drawn = state.wanted
        })
    let other = try SwellSystem.Thread {
        func presentedPixel() -> UInt32? {
            loop.monitors[0].withPresentedFrame(through: mailbox, output: 0) { frame, _ in
                frame.map { $0.surface.base.load(as: UInt32.self) & 0xFFFFFF }
            }
        }
        while presentedPixel() != 0xFF0000 { sleepUntil(monotonic: monotonicSeconds() + 0.005) }
        state.pixels.append(presentedPixel()!)
        state.loopThreadRuns = mailbox.run(ended: -1) { _ in
            state.wanted = Color(r: 0, g: 0, b: 1)
            return 1
        }
        while presentedPixel() != 0x0000FF { sleepUntil(monotonic: monotonicSeconds() + 0.005) }
        state.pixels.append(presentedPixel()!)
        // The memory display has no power control: asked off, it stays on.
        let chosen = mailbox.run(ended: []) { loop in loop.requestScreen(on: false, output: nil) }
        state.powers = mailbox.run(ended: []) { loop in chosen.map { loop.screenIsOn(output: $0) } }
    }
    let end = try loop.run(content, seconds: 2)
    other.join()
    #expect(end == .timeUp)
    #expect(state.loopThreadRuns == 1)
    #expect(state.pixels == [0xFF0000, 0x0000FF])
    #expect(state.powers == [true])
    let summary = loop.monitors[0].summary(now: monotonicSeconds(), budget: 1000)
    #expect(summary.frames == presenter.presentedFrames)
    #expect(summary.recent?.count == presenter.presentedFrames)
    #expect(summary.recent?.overBudget == 0)
    // The loop has ended: work is answered at once with the fallback.
    mailbox.close()
    #expect(mailbox.run(ended: -1) { _ in 1 } == -1)
}
