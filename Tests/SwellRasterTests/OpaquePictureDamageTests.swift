import SwellRaster
import Testing

/// An opaque picture replaces every pixel of its rectangle, so a new picture over shapes whose
/// kernels are not column-exact (waves, rings: a video over animated waves) is redrawn in its
/// own rectangle, not across its rows — with the bytes a whole render gives.
@Suite struct OpaquePictureDamageTests {
    static let background = Color(r: 0.1, g: 0.2, b: 0.3, a: 1)

    static func picture(_ seed: UInt32, width: Int, height: Int) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        var state = seed &* 2_654_435_761 | 1
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                buffer.surface.row(y)[x] = 0xFF00_0000 | (state & 0xFF_FFFF)
            }
        }
        return buffer
    }

    /// Frame `index`: a wave and a ring under a picture at (30, 20), a ring over its corner in
    /// odd frames, a half-transparent picture over its middle in frames 3 and 4.
    static func frame(_ index: Int, pictures: [PixelBuffer], overlay: PixelBuffer) -> DisplayList {
        var list = DisplayList(width: 160, height: 100, background: background)
        list.append(
            DrawCommand(.waveFill(Wave(baseline: 50, amplitude: 12, wavelength: 41, phase: 0.5)), color: .white))
        list.append(
            DrawCommand(.ring(Ring(centerX: 60, centerY: 40, radius: 30, width: 5)), color: Color(r: 1, g: 0, b: 0)))
        let placement = OpPlacement(origin: PixelOrigin(x: 30, y: 20), clip: ClipRect(x0: 30, y0: 20, x1: 110, y1: 70))
        list.commands.append(.image(pictures[index % pictures.count], alpha: 1, at: placement))
        if index % 2 == 1 {
            list.append(
                DrawCommand(
                    .ring(Ring(centerX: 105, centerY: 25, radius: 9, width: 3)), color: Color(r: 0, g: 1, b: 0, a: 0.7))
            )
        }
        if index == 3 || index == 4 {
            list.commands.append(
                .image(overlay, alpha: 0.5, at: OpPlacement(origin: PixelOrigin(x: 50, y: 30), clip: nil)))
        }
        return list
    }

    @Test func aNewOpaquePictureIsRedrawnInItsOwnRectangleWithTheBytesOfAWholeRender() {
        let pictures = (0..<3).map { Self.picture(UInt32($0), width: 80, height: 50) }
        let overlay = Self.picture(9, width: 20, height: 20)
        for threads in [1, 2] {
            let renderer = FrameRenderer(threads: threads, bandHeight: 16)
            let tracked = PixelBuffer(width: 160, height: 100)
            for index in 0..<8 {
                let list = Self.frame(index, pictures: pictures, overlay: overlay)
                let damage = renderer.render(list, into: tracked.surface)
                let whole = PixelBuffer(width: 160, height: 100)
                render(list, into: whole.surface)
                #expect(
                    tracked.packedBytes() == whole.packedBytes(), "frame \(index) on \(threads) thread(s) differs")
                // Frame 2 after 1: the picture changed and the ring over its corner went; the
                // ring is not column-exact, so those rows are drawn whole. Frame 6 after 5: the
                // same. Frames 1 → 2 aside, a change of picture alone keeps its columns.
                if index == 1 {
                    // The picture changed and a ring was added over it: the ring's rows.
                    #expect(damage.rects.contains { $0.x0 == 0 && $0.x1 == 160 })
                }
                if index == 6 || index == 2 {
                    #expect(damage.rects.contains { $0.x0 == 0 && $0.x1 == 160 }, "the ring that went: \(damage)")
                }
            }
            // Only the picture changes: its rectangle, rows aligned, and nothing across the width.
            let still = Self.frame(0, pictures: pictures, overlay: overlay)
            _ = renderer.render(still, into: tracked.surface)
            let next = Self.frame(2, pictures: pictures, overlay: overlay)
            let damage = renderer.render(next, into: tracked.surface)
            #expect(damage.rects.count == 1 && damage.rects[0].x0 == 30 && damage.rects[0].x1 == 110, "\(damage)")
            let whole = PixelBuffer(width: 160, height: 100)
            render(next, into: whole.surface)
            #expect(tracked.packedBytes() == whole.packedBytes())
        }
    }
}
