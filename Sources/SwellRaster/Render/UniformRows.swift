/// Rows of a band that are not written yet because every pixel of the row would be the same
/// colour: the "virtual uniform colour" of each row, or `UniformRows.written` once the row's
/// real pixels are in the surface.
///
/// Why: after the clear every row is the background, and a full-width wave fill blends every
/// pixel of its fully covered rows with one constant (`WaveBlender.fullSpan`), so such a row
/// stays uniform and its new colour is a one-pixel blend. Keeping the colour instead of the
/// pixels turns the clear plus the fills' full rows (1.3 frames of blending in waves.json) into
/// one plain fill per row at the end. Any other drawing first writes the virtual rows it may
/// touch (`materialise`), so the output is the plain pipeline's, byte for byte.
///
/// A view of one worker's storage in the FrameRenderer, indexed by absolute row (the pointer is
/// offset by the band's top), for the columns `columns` of a band: a virtual row stands for
/// those columns only, so a damage rectangle narrower than the frame leaves the rest alone.
@usableFromInline
struct UniformRows: @unchecked Sendable {
    /// Marks a written row. Virtual colours are opaque (alpha byte 0xFF: the clear's colour and
    /// every `WaveBlender` result), so 0 is never one of them.
    @usableFromInline static let written: UInt32 = 0

    @usableFromInline let colors: UnsafeMutablePointer<UInt32>
    @usableFromInline let surface: PixelSurface
    @usableFromInline let columns: Range<Int>

    @inlinable
    init(colors: UnsafeMutablePointer<UInt32>, surface: PixelSurface, columns: Range<Int>) {
        self.colors = colors
        self.surface = surface
        self.columns = columns
    }

    /// Whether the band spans the frame's width (only then may a wave fill keep rows virtual).
    @inlinable var isFullWidth: Bool { columns.lowerBound == 0 && columns.upperBound == surface.width }

    /// Makes rows virtual with the opaque `pixel` (the clear, without writing anything).
    @inlinable
    func clear(_ rows: Range<Int>, to pixel: UInt32) {
        precondition(pixel >> 24 == 0xFF, "a virtual row colour must be opaque")
        (colors + rows.lowerBound).update(repeating: pixel, count: rows.count)
    }

    /// Writes the virtual rows among `rows` (clamped to the surface) to the band's columns.
    @inlinable
    func materialise(_ rows: Range<Int>) {
        let low = max(rows.lowerBound, 0)
        let high = min(rows.upperBound, surface.height)
        var y = low
        while y < high {
            let color = colors[y]
            if color != Self.written {
                (surface.row(y) + columns.lowerBound).update(repeating: color, count: columns.count)
                colors[y] = Self.written
            }
            y += 1
        }
    }

    /// Records that `rows` were written by a kernel that wrote all their pixels in the band's
    /// columns itself.
    @inlinable
    func markWritten(_ rows: Range<Int>) {
        (colors + rows.lowerBound).update(repeating: Self.written, count: rows.count)
    }

    /// A full-width constant-alpha blend of `rows`: virtual rows get the blended colour,
    /// written rows are blended pixel by pixel (the same math, so the same bytes) but for the
    /// pixels `hidden` names, which a later opaque fill overwrites.
    @inlinable
    func blendFullRows(_ rows: Range<Int>, with blender: WaveBlender, hidden: HiddenGroups? = nil) {
        for y in rows {
            let color = colors[y]
            if color != Self.written {
                colors[y] = blender.fullPixel(over: color)
            } else if let hidden {
                let row = surface.row(y)
                hidden.forEachShownRun(row: y, width: surface.width) { blender.fullSpan(row, from: $0, to: $1) }
            } else {
                blender.fullSpan(surface.row(y), from: 0, to: surface.width)
            }
        }
    }
}
