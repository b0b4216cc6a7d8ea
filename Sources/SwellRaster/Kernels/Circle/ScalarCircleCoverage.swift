/// Coverage of one pixel by a disc, one pixel at a time in `Double`: the path for small circles
/// (exact area) and huge ones (the half-plane model without `Float` cancellation).

/// The fraction of pixel [x0, x0+1] x [y0, y0+1] (coordinates relative to the centre) inside
/// the disc of radius `radius`.
@inlinable
func discCoverage(x0: Double, y0: Double, radius: Double) -> Double {
    let x1 = x0 + 1
    let y1 = y0 + 1
    // Decide pixels that lie wholly outside or inside by their nearest point and farthest corner.
    let nearX = x0 > 0 ? x0 : (x1 < 0 ? -x1 : 0)
    let nearY = y0 > 0 ? y0 : (y1 < 0 ? -y1 : 0)
    if nearX * nearX + nearY * nearY >= radius * radius { return 0 }
    let farX = max(abs(x0), abs(x1))
    let farY = max(abs(y0), abs(y1))
    if farX * farX + farY * farY <= radius * radius { return 1 }
    if radius < CircleTuning.exactBelowRadius {
        return exactDiscRectangleArea(x0: x0, x1: x1, y0: y0, y1: y1, radius: radius)
    }
    let dx = abs(x0 + 0.5)
    let dy = abs(y0 + 0.5)
    let p = max(dx, dy)
    let q = max(min(dx, dy), 1e-9 * p)
    let rho = (p * p + q * q).squareRoot()
    // R − ρ = (R² − ρ²)/(R + ρ), with R² − ρ² = (R − p)(R + p) − q² to keep its digits for huge R.
    let u = ((radius - p) * (radius + p) - q * q) / (radius + rho)
    return halfPlaneDiscCoverage(
        u: u, a: p / rho, b: q / rho, inverseA: rho / p, inverseAB: rho * rho / (p * q),
        curvature: 1 / (24 * radius))
}

/// The box-filtered coverage of a pixel by a disc whose boundary passes at signed distance `u`
/// from the pixel centre (positive inside), with the boundary normal's components a ≥ b ≥ 0
/// (a² + b² = 1): the area of the pixel cut by the tangent half-plane — the CDF of a trapezoid,
/// quadratic ramps of width b at both ends around a linear part of slope 1/a — minus the area
/// between the tangent and the arc, L³/(24R) for a chord of length L. Generic over one `Double`
/// or SIMD lanes would cost clarity; this is the scalar twin of `CircleLanes.discCoverage`.
@inlinable @inline(__always)
func halfPlaneDiscCoverage(
    u: Double, a: Double, b: Double, inverseA: Double, inverseAB: Double, curvature: Double
) -> Double {
    let linear = min(max(0.5 + u * inverseA, 0), 1)
    let toCorner = (a + b) * 0.5 - abs(u)  // distance from the line to the farthest corner on its side
    let halfB = b * 0.5
    let cornerRun = max(halfB - abs(toCorner - halfB), 0)
    let cornerArea = cornerRun * cornerRun * inverseAB * 0.5
    let halfPlane = u < 0 ? linear + cornerArea : linear - cornerArea
    let chord = min(inverseA, max(toCorner, 0) * inverseAB)
    return max(halfPlane - chord * chord * chord * curvature, 0)
}
