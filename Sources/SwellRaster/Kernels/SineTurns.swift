/// A SIMD sine for the wave kernels: sin(2π·t) of sixteen lanes at once, with `t` in turns.
///
/// Range reduction subtracts the nearest integer (the 1.5·2^23 rounding trick, valid for
/// |t| < 2^22), folds the half turn onto [−¼, ¼] (sin(π − x) = sin x) and evaluates the
/// Taylor polynomial of degree 11, whose truncation error at π/2 is 5.7e-8: the result is
/// within a few Float ulps of sin (measured in SineTests: max error 2.4e-7 on ±1000 turns).
/// Everything is lane-wise arithmetic and compares, so it compiles to straight vector code with
/// no libm call. Callers keep `t` small (the wave kernels reduce the per-group base turn in
/// Double) because Float `t` itself only carries 24 bits.
@inlinable @inline(__always)
public func sineOfTurns(_ turns: SIMD16<Float>) -> SIMD16<Float> {
    let magic = SIMD16<Float>(repeating: 12_582_912.0)
    let nearest = (turns + magic) - magic
    var t = turns - nearest  // now in [−½, ½]
    let half = SIMD16<Float>(repeating: 0.5)
    // Fold: for t > ¼ use ½ − t, for t < −¼ use −½ − t.
    t.replace(with: half - t, where: t .> 0.25)
    t.replace(with: -half - t, where: t .< -0.25)
    let x = t * (2 * Float.pi)
    let x2 = x * x
    var p = SIMD16<Float>(repeating: -1.0 / 39_916_800.0)
    p = p * x2 + 1.0 / 362_880.0
    p = p * x2 - 1.0 / 5_040.0
    p = p * x2 + 1.0 / 120.0
    p = p * x2 - 1.0 / 6.0
    return x + x * x2 * p
}
