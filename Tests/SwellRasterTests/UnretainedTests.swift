import SwellRaster
import Testing

/// The renderer reads the commands without reference counting (`withUnretained`): it must
/// neither keep nor drop a reference it does not own. A picture whose only other reference is
/// the list's is the test's alone again once the list is gone; the pictures it keeps to compare
/// the next frame with are released after that frame.
@Suite struct UnretainedTests {
    static func list(_ picture: PixelBuffer) -> DisplayList {
        var path = Path()
        path.move(to: 1, 1)
        path.line(to: 7, 1)
        path.line(to: 4, 7)
        path.close()
        return DisplayList(
            width: 16, height: 16, background: .white,
            commands: [
                .image(picture, alpha: 0.5), .beginLayer, .maskedImage(picture, path),
                .endLayer(HorizontalGradientMask(stops: [MaskStop(x: 0, alpha: 1), MaskStop(x: 16, alpha: 0)])),
                .image(picture, alpha: 1, at: OpPlacement(origin: PixelOrigin(x: 8, y: 8), clip: nil)),
            ])
    }

    @Test(arguments: [1, 2])
    func leavesTheListsReferencesAlone(threads: Int) {
        var picture = PixelBuffer(width: 8, height: 8)
        let surface = PixelBuffer(width: 16, height: 16)
        let renderer = FrameRenderer(threads: threads, bandHeight: 4)
        do {
            let list = Self.list(picture)
            for _ in 0..<3 { renderer.render(list, into: surface.surface, tracksDamage: false) }
        }
        #expect(isKnownUniquelyReferenced(&picture))
    }

    @Test func keepsTheComparedPicturesOneFrame() {
        var first = PixelBuffer(width: 8, height: 8)
        let surface = PixelBuffer(width: 16, height: 16)
        let renderer = FrameRenderer()
        renderer.render(Self.list(first), into: surface.surface)
        // Kept until the next frame has been compared with this one.
        #expect(!isKnownUniquelyReferenced(&first))
        renderer.render(Self.list(PixelBuffer(width: 8, height: 8)), into: surface.surface)
        #expect(isKnownUniquelyReferenced(&first))
    }
}
