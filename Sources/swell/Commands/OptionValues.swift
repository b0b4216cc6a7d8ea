import SwellDisplay
import SwellInput
import SwellLoop
import SwellService

/// The values of the output and touch options, read with the messages that name each option
/// (SwellKiosk's types know their grammar, not the command line).
func outputChoice(_ text: String) throws(CommandFailure) -> OutputChoice {
    guard let choice = OutputChoice(rawValue: text) else {
        throw CommandFailure(ExitStatus.usage, "--output wants auto, drm, fbdev or memory, not '\(text)'")
    }
    return choice
}

/// `--rotate` (or its per-output `CONNECTOR=` value): 0, 90, 180 or 270.
func rotation(_ text: String) throws(CommandFailure) -> Rotation {
    guard let degrees = Int(text), let rotation = Rotation(rawValue: degrees) else {
        throw CommandFailure(ExitStatus.usage, "--rotate wants 0, 90, 180 or 270, not '\(text)'")
    }
    return rotation
}

/// `--mode` (or its per-output `CONNECTOR=` value).
func modeRequest(_ text: String) throws(CommandFailure) -> ModeRequest {
    guard let mode = ModeRequest(text: text) else {
        throw CommandFailure(
            ExitStatus.usage,
            "--mode wants WIDTHxHEIGHT or WIDTHxHEIGHT@HZ (sides up to 16384, a rate in Hz such as 60), "
                + "such as 1920x1080@60, not '\(text)'")
    }
    return mode
}

/// `--touch-matrix` (or its `DEVICE=` value): six numbers, not folding the screen onto a line.
func touchMatrix(_ text: String) throws(CommandFailure) -> TouchCalibration {
    guard let calibration = TouchCalibration(text: text) else {
        throw CommandFailure(
            ExitStatus.usage,
            "--touch-matrix wants six numbers a,b,c,d,e,f (panel x = a·x + b·y + c, y = d·x + e·y + f, "
                + "as libinput's LIBINPUT_CALIBRATION_MATRIX; 'swell touch-test --calibrate' measures them), "
                + "not '\(text)'")
    }
    guard !calibration.isDegenerate else {
        throw CommandFailure(
            ExitStatus.usage, "--touch-matrix '\(text)' maps the whole touch screen onto a line; measure it again")
    }
    return calibration
}

extension SpanLayout.Words {
    /// A span's settings as `swell run` spells them.
    static let commandLine = SpanLayout.Words(
        span: "--span", position: "--span-at NAME=X,Y", bezel: "--bezel", rotate: "--rotate", mode: "--mode")
    /// A span's settings as a kiosk file spells them.
    static let kioskFile = SpanLayout.Words(
        span: "\"span\"", position: "\"at\": [X, Y]", bezel: "\"bezel\"", rotate: "\"rotate\"", mode: "\"mode\"")
}
