import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import Testing

/// SplitMix64: a seeded, reproducible source of random frames.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The visible scan-out bytes (rows without their padding).
private func visibleScanout(_ presenter: MemoryPresenter) -> [UInt8] {
    let rowBytes = presenter.display.panelWidth * presenter.format.bytesPerPixel
    var bytes: [UInt8] = []
    for y in 0..<presenter.display.panelHeight {
        bytes += UnsafeRawBufferPointer(start: presenter.scanout + y * presenter.pitch, count: rowBytes)
    }
    return bytes
}

/// A random rectangle inside a `width` x `height` picture (sometimes a single pixel, sometimes
/// reaching the edges).
private func randomRect(width: Int, height: Int, using random: inout SplitMix) -> ClipRect {
    let x0 = Int.random(in: 0..<width, using: &random)
    let y0 = Int.random(in: 0..<height, using: &random)
    return ClipRect(
        x0: x0, y0: y0, x1: Int.random(in: (x0 + 1)...width, using: &random),
        y1: Int.random(in: (y0 + 1)...height, using: &random))
}

struct DamagePresentConfiguration: CustomTestStringConvertible, Sendable {
    var rotation: Rotation
    var buffers: Int
    var format: ScanoutFormat
    var testDescription: String { "\(rotation) \(buffers) buffer(s) \(format)" }
}

private let configurations: [DamagePresentConfiguration] = Rotation.allCases.flatMap { rotation in
    [1, 2, 3].flatMap { buffers in
        [ScanoutFormat.xrgb8888, .rgb565].map {
            DamagePresentConfiguration(rotation: rotation, buffers: buffers, format: $0)
        }
    }
}

/// The property the presenters' damage rests on: a frame presented with only its damage copied
/// leaves the scan-out buffer shown with the same bytes as a frame presented whole, every frame —
/// for every rotation, with one buffer, with page flips (the back buffer missed the frame before,
/// the buffer age) and with three, in a converted format, with padded rows. The frames change
/// only pixels inside their damage (the contract the renderer keeps), and some change nothing.
@Test(arguments: configurations)
func presentingOnlyTheDamageShowsTheSameBytesAsPresentingWhole(_ configuration: DamagePresentConfiguration) throws {
    let (panelWidth, panelHeight) = (13, 9)
    let bytesPerPixel = configuration.format.bytesPerPixel
    func make() -> MemoryPresenter {
        MemoryPresenter(
            panelWidth: panelWidth, panelHeight: panelHeight, rotation: configuration.rotation,
            format: configuration.format, pitch: panelWidth * bytesPerPixel + 12, buffers: configuration.buffers)
    }
    let partial = make()
    let whole = make()
    let width = partial.shadow.width
    let height = partial.shadow.height
    var random = SplitMix(state: UInt64(configuration.rotation.rawValue * 10 + configuration.buffers))
    var copiedLess = false
    for frame in 0..<60 {
        var damage = Damage()
        // The first frame is whole (the buffers hold nothing yet); later ones change up to four
        // rectangles, or none.
        let rectCount = frame == 0 ? 0 : Int.random(in: 0...4, using: &random)
        if frame == 0 { damage.add(ClipRect(x0: 0, y0: 0, x1: width, y1: height)) }
        for _ in 0..<rectCount { damage.add(randomRect(width: width, height: height, using: &random)) }
        for rect in damage.rects {
            for y in rect.y0..<rect.y1 {
                for x in rect.x0..<rect.x1 {
                    let pixel = UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000
                    partial.shadow.surface.row(y)[x] = pixel
                    whole.shadow.surface.row(y)[x] = pixel
                }
            }
        }
        try partial.present(damage: damage)
        try whole.present()
        let (shown, expected) = (visibleScanout(partial), visibleScanout(whole))
        let differing = zip(shown, expected).filter { $0 != $1 }.count
        #expect(differing == 0, "frame \(frame): \(differing) scan-out bytes differ from the whole copy's")
        if frame > 0 && partial.lastCopiedPixels < width * height { copiedLess = true }
    }
    #expect(copiedLess, "the damage path copied less than whole frames")
}

@Test func aFlipsBackBufferCatchesUpOnTheFrameItMissed() throws {
    let presenter = MemoryPresenter(panelWidth: 10, panelHeight: 10, buffers: 2)
    try presenter.present()
    let first = ClipRect(x0: 0, y0: 0, x1: 10, y1: 1)
    let second = ClipRect(x0: 0, y0: 5, x1: 10, y1: 7)
    // The second buffer has never been written: whole.
    try presenter.present(damage: Damage([first]))
    #expect(presenter.lastCopiedPixels == 100)
    // The first was written two frames ago: it gets the first strip too.
    try presenter.present(damage: Damage([second]))
    #expect(presenter.lastCopiedPixels == 30)
    try presenter.present(damage: Damage([first]))
    #expect(presenter.lastCopiedPixels == 30)
    // Nothing changed: nothing copied, nothing shown.
    try presenter.present(damage: Damage())
    #expect(presenter.lastCopiedPixels == 0 && presenter.presentedFrames == 4)
}

@Test func aDamagedRectangleLandsWhereTheRotationPutsIt() {
    let rect = ClipRect(x0: 1, y0: 2, x1: 4, y1: 3)
    // A 6 x 4 picture: on a 4 x 6 panel turned 90°, picture (x, y) shows at panel (H-1-y, x).
    #expect(
        Rotation.clockwise90.panelRect(ofPicture: rect, logicalWidth: 6, logicalHeight: 4)
            == ClipRect(x0: 1, y0: 1, x1: 2, y1: 4))
    #expect(
        Rotation.clockwise270.panelRect(ofPicture: rect, logicalWidth: 6, logicalHeight: 4)
            == ClipRect(x0: 2, y0: 2, x1: 3, y1: 5))
    #expect(
        Rotation.upsideDown.panelRect(ofPicture: rect, logicalWidth: 6, logicalHeight: 4)
            == ClipRect(x0: 2, y0: 1, x1: 5, y1: 2))
    #expect(Rotation.none.panelRect(ofPicture: rect, logicalWidth: 6, logicalHeight: 4) == rect)
}
