import SwellDisplay
import SwellService

/// `swell touch-test --calibrate`: four crosses, one at a time, each an eighth of the picture in
/// from two edges (as xinput_calibrator and ts_calibrate place theirs: far enough apart to
/// measure scale and skew, far enough in that a finger can reach them); the tap on each is
/// recorded uncalibrated, and the least-squares affine fit from the taps to the crosses is the
/// touch matrix.
public struct CalibrationSession {
    /// The crosses in picture pixels, in the order they are shown.
    public let targets: [(x: Double, y: Double)]
    /// Where the taps landed so far (picture pixels, uncalibrated).
    public private(set) var taps: [(x: Double, y: Double)] = []

    public init(pictureWidth: Int, pictureHeight: Int) {
        let (w, h) = (Double(pictureWidth), Double(pictureHeight))
        targets = [(w / 8, h / 8), (w * 7 / 8, h / 8), (w * 7 / 8, h * 7 / 8), (w / 8, h * 7 / 8)]
    }

    /// The cross to tap next, or nil once every cross has been tapped.
    public var nextTarget: (x: Double, y: Double)? { taps.count < targets.count ? targets[taps.count] : nil }

    /// What to tell the user about the next cross.
    public var prompt: String {
        guard let target = nextTarget else { return "calibrate: done" }
        return "calibrate: tap the centre of the cross \(taps.count + 1) of \(targets.count) "
            + "at x=\(Int(target.x)) y=\(Int(target.y))"
    }

    public enum Outcome: Equatable {
        /// More crosses to tap.
        case next
        /// Every cross tapped: the fit and its largest miss in picture pixels.
        case calibrated(TouchCalibration, largestMiss: Double)
        /// The taps lie on one line (the same spot tapped twice, a device whose one axis is stuck):
        /// the session starts again.
        case degenerate
    }

    /// Records a touch that began at (x, y) in picture pixels, reported through `mapping` with
    /// no calibration, and says what comes next.
    public mutating func record(x: Double, y: Double, mapping: ScreenMapping) -> Outcome {
        taps.append((x, y))
        guard taps.count == targets.count else { return .next }
        var uncalibrated = mapping
        uncalibrated.calibration = .identity
        // Both sides in the calibration's space: normalised panel coordinates before the rotation
        // (with no calibration, where a tap is reported there is where the device put it).
        let measured = taps.map { uncalibrated.normalisedPanelPoint(pictureX: $0.x, pictureY: $0.y) }
        let wanted = targets.map { uncalibrated.normalisedPanelPoint(pictureX: $0.x, pictureY: $0.y) }
        guard let fit = TouchCalibration.fitted(measured: measured, targets: wanted) else {
            taps.removeAll()
            return .degenerate
        }
        var calibrated = uncalibrated
        calibrated.calibration = fit
        var largestMiss = 0.0
        for (device, target) in zip(measured, targets) {
            let landed = calibrated.picturePoint(deviceX: device.x, deviceY: device.y)
            let miss = ((landed.x - target.x) * (landed.x - target.x) + (landed.y - target.y) * (landed.y - target.y))
                .squareRoot()
            largestMiss = max(largestMiss, miss)
        }
        return .calibrated(fit, largestMiss: largestMiss)
    }
}
