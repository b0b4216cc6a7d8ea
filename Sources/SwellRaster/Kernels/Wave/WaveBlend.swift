/// The `fixed16` blend precision (`BlendPrecision`, which says which ops use it): source-over
/// in 16-bit fixed point, per channel out = (d·keep + add) >> 16 with keep = (1 − α)·2^16 and
/// add = s·α·2^16 + 2^15, in 32-bit lanes. The fixed-point terms are within 2^-16 of the real
/// ones, so the result is the correctly rounded d + (s − d)·α except within 0.005 of a tie, and
/// ties round up as the reference's `rounded()` does (the `float` precision rounds ties to
/// even). Three integer multiplies and shifts per channel, no int↔float conversions, and the
/// constant-alpha form (`fullSpan`, `fullPixel`) needs nothing per pixel but the channel math.
/// The coverage form (`coverageLanes`) rounds α·2^16 and s·α·2^8 per lane instead of taking the
/// op's constants; both stay within the bound above (BlendTests).
@frozen
public struct WaveBlender {
    @usableFromInline let red: Float
    @usableFromInline let green: Float
    @usableFromInline let blue: Float
    /// The op's alpha (source alpha), 0...1.
    @usableFromInline let alpha: Float
    /// Constant-alpha terms for full coverage.
    @usableFromInline let keep: UInt32
    @usableFromInline let addRed: UInt32
    @usableFromInline let addGreen: UInt32
    @usableFromInline let addBlue: UInt32
    @usableFromInline let opaquePixel: UInt32
    @usableFromInline let isOpaque: Bool

    @inlinable
    public init(_ source: SourceColor) {
        self.init(source, alpha: source.alpha)
    }

    /// The blender of `source`'s colour at `sourceAlpha` instead of its own alpha.
    @inlinable
    public init(_ source: SourceColor, alpha sourceAlpha: Float) {
        red = source.red
        green = source.green
        blue = source.blue
        alpha = min(max(sourceAlpha, 0), 1)
        let a = Double(alpha)
        keep = UInt32(((1 - a) * 65536).rounded())
        addRed = UInt32((Double(source.red) * a * 65536).rounded()) + 32768
        addGreen = UInt32((Double(source.green) * a * 65536).rounded()) + 32768
        addBlue = UInt32((Double(source.blue) * a * 65536).rounded()) + 32768
        opaquePixel = source.opaquePixel
        isOpaque = alpha >= 1
    }

    @inlinable @inline(__always)
    static func mix(_ d: PixelVector, keep: PixelVector, red: PixelVector, green: PixelVector, blue: PixelVector)
        -> PixelVector
    {
        let byte = PixelVector(repeating: 0xFF)
        let r = (((d &>> 16) & byte) &* keep &+ red) &>> 16
        let g = (((d &>> 8) & byte) &* keep &+ green) &>> 16
        let b = ((d & byte) &* keep &+ blue) &>> 16
        return (r &<< 16) | (g &<< 8) | b | PixelVector(repeating: 0xFF00_0000)
    }

    @inlinable @inline(__always)
    static func mixPixel(_ d: UInt32, keep: UInt32, red: UInt32, green: UInt32, blue: UInt32) -> UInt32 {
        let r = (((d &>> 16) & 0xFF) &* keep &+ red) &>> 16
        let g = (((d &>> 8) & 0xFF) &* keep &+ green) &>> 16
        let b = ((d & 0xFF) &* keep &+ blue) &>> 16
        return 0xFF00_0000 | r &<< 16 | g &<< 8 | b
    }

    /// The pixel `fullSpan` writes over `destination`: one pixel of the same integer math (the
    /// frame renderer blends a whole uniform row with it; BlendTests checks it against fullSpan).
    @inlinable @inline(__always)
    public func fullPixel(over destination: UInt32) -> UInt32 {
        isOpaque
            ? opaquePixel : Self.mixPixel(destination, keep: keep, red: addRed, green: addGreen, blue: addBlue)
    }

    /// Composites at the op's alpha (full coverage) over pixels x0..<x1 of `row`. When `under`
    /// is not `UniformRows.written` the row is a virtual uniform row of that colour: the pixels
    /// are not read, the blend over `under` is stored.
    @inlinable @inline(__always)
    public func fullSpan(
        _ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, under: UInt32 = UniformRows.written
    ) {
        guard x1 > x0 else { return }
        if under != UniformRows.written {
            (row + x0).update(repeating: fullPixel(over: under), count: x1 - x0)
            return
        }
        if isOpaque {
            (row + x0).update(repeating: opaquePixel, count: x1 - x0)
            return
        }
        let k = PixelVector(repeating: keep)
        let r = PixelVector(repeating: addRed)
        let g = PixelVector(repeating: addGreen)
        let b = PixelVector(repeating: addBlue)
        var x = x0
        while x + laneCount <= x1 {
            let p = UnsafeMutableRawPointer(row + x)
            p.storeBytes(
                of: Self.mix(p.loadUnaligned(as: PixelVector.self), keep: k, red: r, green: g, blue: b),
                as: PixelVector.self)
            x += laneCount
        }
        while x < x1 {
            row[x] = Self.mixPixel(row[x], keep: keep, red: addRed, green: addGreen, blue: addBlue)
            x += 1
        }
    }

    /// `fullSpan` over columns x0..<x1 of every row in `rows`, column by column: the fill's rows
    /// below a group's chords. A whole group (16 columns) keeps the blend constants in registers
    /// across rows (per-row `fullSpan` calls reloaded and re-broadcast them: ~1/3 of the fill's
    /// curve band time). Same math, same bytes.
    ///
    /// With `virtualColors` (a frame renderer's `UniformRows` colours, indexed by absolute row), a
    /// row whose colour is not `UniformRows.written` is not read: its pixels are known to be that
    /// colour, so the blend of it is stored directly.
    @inlinable @inline(__always)
    public func fullColumns(
        _ surface: PixelSurface, rows: Range<Int>, from x0: Int, to x1: Int,
        virtualColors: UnsafePointer<UInt32>? = nil
    ) {
        guard !rows.isEmpty else { return }
        guard x1 - x0 == laneCount else {
            for y in rows {
                fullSpan(surface.row(y), from: x0, to: x1, under: virtualColors?[y] ?? UniformRows.written)
            }
            return
        }
        var p = UnsafeMutableRawPointer(surface.row(rows.lowerBound) + x0)
        let stride = surface.stride
        if isOpaque {
            let pixels = PixelVector(repeating: opaquePixel)
            for _ in rows {
                p.storeBytes(of: pixels, as: PixelVector.self)
                p += stride
            }
            return
        }
        let k = PixelVector(repeating: keep)
        let r = PixelVector(repeating: addRed)
        let g = PixelVector(repeating: addGreen)
        let b = PixelVector(repeating: addBlue)
        if let virtualColors {
            for y in rows {
                let under = virtualColors[y]
                let pixels =
                    under != UniformRows.written
                    ? PixelVector(repeating: fullPixel(over: under))
                    : Self.mix(p.loadUnaligned(as: PixelVector.self), keep: k, red: r, green: g, blue: b)
                p.storeBytes(of: pixels, as: PixelVector.self)
                p += stride
            }
            return
        }
        for _ in rows {
            p.storeBytes(
                of: Self.mix(p.loadUnaligned(as: PixelVector.self), keep: k, red: r, green: g, blue: b),
                as: PixelVector.self)
            p += stride
        }
    }

    /// Composites the pixels `lanes` (absolute x, inside the group of sixteen starting at
    /// `group`) of `row` with per-lane coverage (0...1); other pixels are not touched. When
    /// `under` is not `UniformRows.written` the row is a virtual uniform row of that colour: the
    /// pixels are not read, the blend over `under` is stored.
    @inlinable @inline(__always)
    public func coverageLanes(
        _ row: UnsafeMutablePointer<UInt32>, group x: Int, lanes: Range<Int>, coverage: LaneFloats,
        under: UInt32 = UniformRows.written
    ) {
        // α·2^16 and s·α·2^8 rounded with the 1.5·2^23 trick (both stay below 2^22).
        let magic = LaneFloats(repeating: 12_582_912.0)
        let mask = PixelVector(repeating: 0x3F_FFFF)
        let a = coverage * alpha
        let a16 = unsafeBitCast(a * 65536 + magic, to: PixelVector.self) & mask
        let a8 = a * 256
        let half = PixelVector(repeating: 32768)
        let k = PixelVector(repeating: 65536) &- a16
        let r = ((unsafeBitCast(a8 * red + magic, to: PixelVector.self) & mask) &<< 8) &+ half
        let g = ((unsafeBitCast(a8 * green + magic, to: PixelVector.self) & mask) &<< 8) &+ half
        let b = ((unsafeBitCast(a8 * blue + magic, to: PixelVector.self) & mask) &<< 8) &+ half
        let virtual = under != UniformRows.written
        if lanes.count == laneCount {
            let p = UnsafeMutableRawPointer(row + x)
            let d = virtual ? PixelVector(repeating: under) : p.loadUnaligned(as: PixelVector.self)
            p.storeBytes(of: Self.mix(d, keep: k, red: r, green: g, blue: b), as: PixelVector.self)
        } else {
            for px in lanes {
                let lane = px - x
                let d = virtual ? under : row[px]
                row[px] = Self.mixPixel(d, keep: k[lane], red: r[lane], green: g[lane], blue: b[lane])
            }
        }
    }

    /// Writes the colour `under` to the pixels x0..<x1 of `row` (a virtual uniform row's pixels
    /// that a fill leaves uncovered), or nothing when the row is written already.
    @inlinable @inline(__always)
    public static func materialiseSpan(_ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, under: UInt32) {
        guard under != UniformRows.written, x1 > x0 else { return }
        if x1 - x0 == laneCount {
            UnsafeMutableRawPointer(row + x0).storeBytes(of: PixelVector(repeating: under), as: PixelVector.self)
        } else {
            (row + x0).update(repeating: under, count: x1 - x0)
        }
    }
}
