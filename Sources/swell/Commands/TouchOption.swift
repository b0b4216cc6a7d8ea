import SwellDisplay
import SwellInput
import SwellLoop
import SwellService

/// `--touch DEVICE=OUTPUT`: the option's grammar and its messages (the routing itself is
/// SwellKiosk's `TouchRouting`).
extension TouchRouting.Request {
    /// Parses "/dev/input/event3=HDMI-A-2" or "ILITEK Multi-Touch=HDMI-A-2", split at the last
    /// '=' (a device's name may hold one; a connector's never does).
    init(parsing text: String) throws(CommandFailure) {
        guard let equals = text.lastIndex(of: "=") else {
            throw CommandFailure(
                ExitStatus.usage,
                "--touch wants DEVICE=OUTPUT, such as /dev/input/event3=HDMI-A-2 or 'ILITEK Multi-Touch=HDMI-A-2', "
                    + "not '\(text)' (no '=')")
        }
        let device = String(text[..<equals])
        let output = String(text[text.index(after: equals)...])
        guard !device.isEmpty else {
            throw CommandFailure(
                ExitStatus.usage,
                "--touch '\(text)': a device (its /dev/input path or name, see 'swell displays') must come first")
        }
        guard !output.isEmpty, !output.contains(where: { $0 == " " || $0 == "," || $0 == "/" }) else {
            throw CommandFailure(
                ExitStatus.usage,
                "--touch '\(text)': the output must be a connector name such as HDMI-A-2 after the '='")
        }
        self.init(device: device, output: output)
    }

    /// Parses every `--touch` value and checks them against the outputs driven: every
    /// malformed value, output not driven and device named twice in one usage error.
    static func checkAll(_ texts: [String], outputs: [String]) throws(CommandFailure) -> [TouchRouting.Request] {
        var problems: [String] = []
        var parsed: [TouchRouting.Request] = []
        for text in texts {
            do {
                parsed.append(try TouchRouting.Request(parsing: text))
            } catch {
                problems.append(error.message)
            }
        }
        problems += check(parsed, outputs: outputs)
        guard problems.isEmpty else { throw CommandFailure(ExitStatus.usage, problems.joined(separator: "\n")) }
        return parsed
    }

    /// The problems of `requests` for a run driving `outputs`: outputs not driven, devices
    /// named twice.
    static func check(_ parsed: [TouchRouting.Request], outputs: [String]) -> [String] {
        var problems: [String] = []
        for request in parsed where !outputs.contains(where: { TouchRouting.sameOutput($0, request.output) }) {
            problems.append(
                "--touch \(request.device)=\(request.output): \(request.output) is not an output of this run "
                    + "(it drives \(outputs.joined(separator: ", ")))")
        }
        var reported: Set<String> = []
        for request in parsed where reported.insert(request.device).inserted {
            let same = parsed.filter { $0.device == request.device }
            guard same.count > 1 else { continue }
            problems.append(
                "--touch: \(request.device) is given \(same.count) outputs ("
                    + same.map(\.output).joined(separator: ", ") + "); one device touches one output")
        }
        return problems
    }
}
