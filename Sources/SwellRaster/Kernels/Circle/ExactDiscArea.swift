#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The exact area of a disc of radius `radius` centred at the origin intersected with the
/// rectangle [x0, x1] x [y0, y1], in `Double`.
///
/// Used for circles smaller than `CircleTuning.exactBelowRadius`, where the tangent
/// half-plane model's error grows; such circles touch few pixels, so one scalar call per edge
/// pixel is cheap. The area is the inclusion–exclusion of `quadrantArea` at the four corners.
@inlinable
func exactDiscRectangleArea(x0: Double, x1: Double, y0: Double, y1: Double, radius: Double) -> Double {
    let area =
        discBelowLeftArea(x: x1, y: y1, radius: radius) - discBelowLeftArea(x: x0, y: y1, radius: radius)
        - discBelowLeftArea(x: x1, y: y0, radius: radius) + discBelowLeftArea(x: x0, y: y0, radius: radius)
    return min(max(area, 0), (x1 - x0) * (y1 - y0))
}

/// The area of the disc (centre 0, radius R) inside {X ≤ x, Y ≤ y}:
/// ∫ from −R to x of [h(X) + sign(y)·min(h(X), |y|)] dX with h(X) = √(R² − X²).
@inlinable
func discBelowLeftArea(x: Double, y: Double, radius: Double) -> Double {
    let xc = min(max(x, -radius), radius)
    let height = abs(y)
    let lower = underArc(xc, radius: radius) + underArc(radius, radius: radius)
    let band = cappedUnderArc(xc, cap: height, radius: radius) + cappedUnderArc(radius, cap: height, radius: radius)
    return y >= 0 ? lower + band : lower - band
}

/// F(x) = ∫₀ˣ √(R² − X²) dX = (x·√(R² − x²) + R²·asin(x/R)) / 2, for |x| ≤ R.
@inlinable
func underArc(_ x: Double, radius: Double) -> Double {
    let h = ((radius - x) * (radius + x)).squareRoot()
    return (x * h + radius * radius * asin(min(max(x / radius, -1), 1))) / 2
}

/// ∫₀ˣ min(√(R² − X²), cap) dX for |x| ≤ R and cap ≥ 0 (odd in x).
@inlinable
func cappedUnderArc(_ x: Double, cap: Double, radius: Double) -> Double {
    if cap >= radius { return underArc(x, radius: radius) }
    let corner = ((radius - cap) * (radius + cap)).squareRoot()  // where the arc crosses the cap
    let ax = abs(x)
    let value = ax <= corner ? cap * ax : cap * corner + underArc(ax, radius: radius) - underArc(corner, radius: radius)
    return x < 0 ? -value : value
}
