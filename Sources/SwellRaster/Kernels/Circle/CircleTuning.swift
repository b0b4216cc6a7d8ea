/// Thresholds that pick the coverage method for one circle boundary (measured; see Ring.swift).
@usableFromInline
enum CircleTuning {
    /// Circles smaller than this use the exact disc∩pixel area (scalar `Double`): below it the
    /// tangent half-plane model plus curvature correction drifts towards the error bounds.
    @usableFromInline static let exactBelowRadius = 12.0
    /// Circles larger than this use the half-plane model in scalar `Double`: in `Float`,
    /// ρ = √(dx² + dy²) loses ~ulp(ρ) ≈ R·6e-8 px, and coordinates lose their fraction.
    @usableFromInline static let floatUpToRadius = 8192.0
    /// Radii or centres beyond this draw nothing: R² − ρ² no longer resolves a pixel in `Double`.
    @usableFromInline static let largestCoordinate = 1e12
}
