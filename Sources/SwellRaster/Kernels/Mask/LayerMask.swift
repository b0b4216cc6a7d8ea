/// Masks a layer that was drawn straight onto the surface: given a copy of what was below it
/// (`below`, same size), each pixel becomes mix(below, drawn, m) with m the mask's alpha there.
/// For source-over layers this equals compositing the layer through the mask, so a scene can
/// draw with the ordinary kernels and mask afterwards (SwiftUI's `.mask(LinearGradient…)`).

/// One stop of a horizontal alpha ramp: `alpha` at `x` pixels from the left.
@frozen
public struct MaskStop: Equatable, Sendable {
    public var x: Double
    public var alpha: Double

    @inlinable
    public init(x: Double, alpha: Double) {
        self.x = x
        self.alpha = alpha
    }
}

/// Alpha that varies linearly between stops along x (constant beyond the first and last stop),
/// evaluated at pixel centres. Stops must be in increasing x.
@frozen
public struct HorizontalGradientMask: Equatable, Sendable {
    public var stops: [MaskStop]

    @inlinable
    public init(stops: [MaskStop]) { self.stops = stops }

    /// The mask's alpha at a point `x` (a Double reference for tests and tools).
    public func alpha(at x: Double) -> Double {
        guard let first = stops.first else { return 1 }
        var value = first.alpha
        for k in 1..<max(stops.count, 1) where k < stops.count {
            let a = stops[k - 1]
            let b = stops[k]
            guard b.x > a.x else { continue }
            let t = min(max((x - a.x) / (b.x - a.x), 0), 1)
            value += t * (b.alpha - a.alpha)
        }
        return min(max(value, 0), 1)
    }
}

/// Columns per pass: the ramp for this many columns lives in a stack buffer (no allocation).
public let layerMaskTileColumns = 512

@inlinable
public func applyLayerMask(_ surface: PixelSurface, below: PixelSurface, _ mask: HorizontalGradientMask, clip: ClipRect)
{
    applyLayerMask(surface, below: below, belowColors: nil, mask, clip: clip)
}

/// `applyLayerMask`, where a row `y` with a non-zero `belowColors[y]` was that one opaque colour
/// below the layer (a virtual row of `UniformRows`: `below` is not read there). Mixing towards
/// the colour is the same arithmetic as towards a copy of it, so the same bytes.
@inlinable
public func applyLayerMask(
    _ surface: PixelSurface, below: PixelSurface, belowColors: UnsafePointer<UInt32>?, _ mask: HorizontalGradientMask,
    clip: ClipRect
) {
    let area = clip.intersection(surface.bounds).intersection(below.bounds)
    guard !area.isEmpty, let first = mask.stops.first else { return }
    var ramp = InlineArray<528, Float>(repeating: 0)  // layerMaskTileColumns + one vector
    withUnsafeMutablePointer(to: &ramp) { storage in
        storage.withMemoryRebound(to: Float.self, capacity: 528) { alphas in
            var lane = LaneFloats(repeating: 0)
            for i in 0..<laneCount { lane[i] = Float(i) }
            let zero = LaneFloats(repeating: 0)
            let one = LaneFloats(repeating: 1)
            var tileLeft = area.x0
            while tileLeft < area.x1 {
                let columns = min(layerMaskTileColumns, area.x1 - tileLeft)
                // The ramp once per column, sixteen at a time: a sum of clamped linear pieces.
                var x = 0
                while x < columns {
                    let centre = lane + Float(tileLeft + x) + 0.5
                    var value = LaneFloats(repeating: Float(first.alpha))
                    for k in 1..<max(mask.stops.count, 1) where k < mask.stops.count {
                        let a = mask.stops[k - 1]
                        let b = mask.stops[k]
                        guard b.x > a.x else { continue }
                        var t = (centre - Float(a.x)) * Float(1 / (b.x - a.x))
                        t.replace(with: zero, where: t .< zero)
                        t.replace(with: one, where: t .> one)
                        value += t * Float(b.alpha - a.alpha)
                    }
                    value.replace(with: zero, where: value .< zero)
                    value.replace(with: one, where: value .> one)
                    UnsafeMutableRawPointer(alphas + x).storeBytes(of: value, as: LaneFloats.self)
                    x += laneCount
                }
                // m = 1 keeps the layer, m = 0 restores what was below: mix(drawn, below, 1 − m).
                for y in area.y0..<area.y1 {
                    let row = surface.row(y) + tileLeft
                    if let belowColors, belowColors[y] != 0 {
                        mixRow(row, towards: belowColors[y], alphas, columns: columns)
                        continue
                    }
                    let under = below.row(y) + tileLeft
                    var x = 0
                    while x < columns {
                        let count = min(laneCount, columns - x)
                        let m = UnsafeRawPointer(alphas + x).loadUnaligned(as: LaneFloats.self)
                        if count == laneCount && all(m .>= one) {
                            x += count
                            continue
                        }
                        mixLanes(row, toward: under, at: x, count: count, one - m)
                        x += count
                    }
                }
                tileLeft += columns
            }
        }
    }
}

/// One row's `columns` pixels mixed towards the opaque `color` by 1 − the ramp's `alphas`
/// (`mixLanes` with a row of that colour).
@inlinable @inline(__always)
func mixRow(
    _ row: UnsafeMutablePointer<UInt32>, towards color: UInt32, _ alphas: UnsafeMutablePointer<Float>, columns: Int
) {
    let one = LaneFloats(repeating: 1)
    let under = PixelVector(repeating: color)
    var x = 0
    while x < columns {
        let count = min(laneCount, columns - x)
        let m = UnsafeRawPointer(alphas + x).loadUnaligned(as: LaneFloats.self)
        if count == laneCount {
            if !all(m .>= one) {
                let p = UnsafeMutableRawPointer(row + x)
                p.storeBytes(of: mixPixels(p.loadUnaligned(as: PixelVector.self), under, one - m), as: PixelVector.self)
            }
        } else {
            let t = one - m
            for i in 0..<count { row[x + i] = mixPixel(row[x + i], color, t[i]) }
        }
        x += count
    }
}
