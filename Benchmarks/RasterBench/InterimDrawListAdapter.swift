// INTERIM: a minimal drawlist/1 → Frame adapter on Foundation's JSONSerialization, used only until
// SwellDrawList's loadDrawList(path:) lands on main; then this file is deleted.
import Foundation
import SwellRaster

struct InterimDrawListError: Error, CustomStringConvertible {
    var description: String
}

func loadBenchFrame(path: String) throws -> Frame {
    func fail(_ message: String) -> InterimDrawListError { InterimDrawListError(description: "\(path): \(message)") }
    guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot read the file") }
    guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw fail("the top level is not a JSON object")
    }
    func number(_ object: [String: Any], _ key: String, _ where_: String) throws -> Double {
        guard let value = object[key] as? NSNumber else { throw fail("\(where_).\(key) is missing or not a number") }
        return value.doubleValue
    }
    func numbers(_ object: [String: Any], _ key: String, _ count: Int, _ where_: String) throws -> [Double] {
        guard let values = object[key] as? [NSNumber], values.count == count else {
            throw fail("\(where_).\(key) must be an array of \(count) numbers")
        }
        return values.map(\.doubleValue)
    }
    guard root["format"] as? String == "drawlist/1" else { throw fail("format must be \"drawlist/1\"") }
    let width = Int(try number(root, "width", "$"))
    let height = Int(try number(root, "height", "$"))
    let clear = try numbers(root, "clear", 3, "$")
    guard let ops = root["ops"] as? [[String: Any]] else { throw fail("$.ops must be an array of objects") }
    var commands: [DrawCommand] = []
    for (index, op) in ops.enumerated() {
        let at = "$.ops[\(index)]"
        let rgba = try numbers(op, "color", 4, at)
        let color = Color(r: rgba[0], g: rgba[1], b: rgba[2], a: rgba[3])
        let shape: Shape
        switch op["op"] as? String {
        case "ring":
            shape = .ring(
                Ring(
                    centerX: try number(op, "cx", at), centerY: try number(op, "cy", at),
                    radius: try number(op, "radius", at), width: try number(op, "width", at)))
        case "wave-fill", "wave-stroke":
            let wave = Wave(
                baseline: try number(op, "baseline", at), amplitude: try number(op, "amplitude", at),
                wavelength: try number(op, "wavelength", at), phase: try number(op, "phase", at))
            if op["op"] as? String == "wave-fill" {
                shape = .waveFill(wave)
            } else {
                guard let envelope = WaveEnvelope(rawValue: op["envelope"] as? String ?? "") else {
                    throw fail("\(at).envelope must be \"none\" or \"parabola\"")
                }
                shape = .waveStroke(
                    WaveStroke(wave: wave, envelope: envelope, width: try number(op, "width", at), length: Double(width)))
            }
        default: throw fail("\(at).op must be ring, wave-fill or wave-stroke")
        }
        commands.append(DrawCommand(shape, color: color))
    }
    return Frame(width: width, height: height, background: Color(r: clear[0], g: clear[1], b: clear[2]), commands: commands)
}
