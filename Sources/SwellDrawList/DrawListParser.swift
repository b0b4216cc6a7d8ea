import SwellJSON
import SwellRaster
import SwellSystem
import SwellText

/// The largest frame side a draw list may ask for.
public let maximumFrameSide = 16384

/// Parses and validates a `drawlist/1` document (bench-data/README.md) into a frame's display
/// list (its ops become `.draw` commands, in order).
/// Every field is checked: finite numbers, sizes 1...16384, known ops, no unknown members.
/// `name` is the file name used in error messages.
public func parseDrawList(bytes: [UInt8], name: String, typesetter: Typesetter? = nil) throws(DrawListError)
    -> DisplayList
{
    try parseDrawListDocument(bytes: bytes, name: name, typesetter: typesetter).frame
}

/// As `parseDrawList`, also returning each `text` op as laid out (the bench redraws them with
/// Cairo and lays them out again cold). `typesetter` caches fonts, lines and glyph masks across
/// lists; a new one is made for this list when none is given.
public func parseDrawListDocument(bytes: [UInt8], name: String, typesetter: Typesetter? = nil)
    throws(DrawListError) -> DrawList
{
    let root: JSONValue
    do {
        root = try parseJSON(bytes)
    } catch {
        throw .syntax(file: name, error)
    }
    do {
        var texts: [TextOp] = []
        var setter = typesetter
        let frame = try frame(from: JSONField(root: root), typesetter: &setter, texts: &texts)
        return DrawList(frame: frame, texts: texts, typesetter: setter)
    } catch {
        throw .invalid(file: name, error)
    }
}

/// Reads, parses and validates a draw-list file.
public func loadDrawList(path: String, typesetter: Typesetter? = nil) throws(DrawListError) -> DisplayList {
    try loadDrawListDocument(path: path, typesetter: typesetter).frame
}

/// Reads a draw-list file into its frame and text ops (see `parseDrawListDocument`).
public func loadDrawListDocument(path: String, typesetter: Typesetter? = nil) throws(DrawListError) -> DrawList {
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(path)
    } catch {
        throw .unreadable(file: path, reason: error.reason)
    }
    return try parseDrawListDocument(bytes: bytes, name: path, typesetter: typesetter)
}

private let topLevelMembers = ["format", "name", "width", "height", "clear", "ops"]

private func frame(from document: JSONField, typesetter: inout Typesetter?, texts: inout [TextOp])
    throws(JSONFieldError) -> DisplayList
{
    try document.rejectUnknownMembers(allowed: topLevelMembers)
    let format = try document["format"]
    guard try format.string() == "drawlist/1" else {
        throw format.failure("expected \"drawlist/1\", got \(format.value.excerpt)")
    }
    if let name = try document.optional("name") { _ = try name.string() }
    let width = try document["width"].integer(in: 1...maximumFrameSide)
    let height = try document["height"].integer(in: 1...maximumFrameSide)
    let clearField = try document["clear"]
    let background = try clearField.color()
    guard background.a == 1 else { throw clearField.failure("the background must be opaque (alpha 1)") }
    var commands: [FrameCommand] = []
    let visible = ClipRect(x0: 0, y0: 0, x1: width, y1: height)
    for op in try document["ops"].array() {
        if try op["op"].oneOf(opKinds) == "text" {
            let setter = typesetter ?? Typesetter()
            typesetter = setter
            var text = try textOp(from: op, typesetter: setter, visible: visible)
            text.commandIndex = commands.count
            commands.append(.draw(text.command))
            texts.append(text)
        } else {
            commands.append(.draw(try command(from: op, frameWidth: width)))
        }
    }
    return DisplayList(
        width: width, height: height,
        background: Color(r: background.r, g: background.g, b: background.b), commands: commands)
}

private let opKinds = ["ring", "disc", "wave-fill", "wave-stroke", "text"]

private func command(from op: JSONField, frameWidth: Int) throws(JSONFieldError) -> DrawCommand {
    let kind = try op["op"].oneOf(opKinds)
    let common = ["op", "color", "clip"]
    let shape: Shape
    switch kind {
    case "ring":
        try op.rejectUnknownMembers(allowed: common + ["cx", "cy", "radius", "width"])
        shape = .ring(
            Ring(
                centerX: try op["cx"].number(), centerY: try op["cy"].number(),
                radius: try op["radius"].number(in: 0...Double.greatestFiniteMagnitude),
                width: try op["width"].number(in: 0...Double.greatestFiniteMagnitude)))
    case "disc":
        try op.rejectUnknownMembers(allowed: common + ["cx", "cy", "radius"])
        shape = .disc(
            Disc(
                centerX: try op["cx"].number(), centerY: try op["cy"].number(),
                radius: try op["radius"].number(in: 0...Double.greatestFiniteMagnitude)))
    case "wave-fill":
        try op.rejectUnknownMembers(allowed: common + waveMembers)
        shape = .waveFill(try wave(from: op))
    default:  // wave-stroke
        try op.rejectUnknownMembers(allowed: common + waveMembers + ["envelope", "width"])
        let envelope = try op.optional("envelope").map { field throws(JSONFieldError) in
            WaveEnvelope(rawValue: try field.oneOf(["none", "parabola"]))!
        }
        shape = .waveStroke(
            WaveStroke(
                wave: try wave(from: op), envelope: envelope ?? WaveEnvelope.none,
                width: try op["width"].number(in: 0...Double.greatestFiniteMagnitude), length: Double(frameWidth)))
    }
    let c = try op["color"].color()
    return DrawCommand(shape, color: Color(r: c.r, g: c.g, b: c.b, a: c.a), clip: try clip(from: op.optional("clip")))
}

private let waveMembers = ["baseline", "amplitude", "wavelength", "phase"]

private func wave(from op: JSONField) throws(JSONFieldError) -> Wave {
    let wavelength = try op["wavelength"]
    let length = try wavelength.number()
    guard length > 0 else { throw wavelength.failure("expected a wavelength > 0, got \(wavelength.value.excerpt)") }
    return Wave(
        baseline: try op["baseline"].number(), amplitude: try op["amplitude"].number(),
        wavelength: length, phase: try op["phase"].number())
}

/// `"clip": [x, y, width, height]` in whole pixels (an extension to drawlist/1).
func clip(from field: JSONField?) throws(JSONFieldError) -> ClipRect? {
    guard let field else { return nil }
    let parts = try field.array(count: 4...4)
    let x = try parts[0].integer(in: -maximumFrameSide...maximumFrameSide)
    let y = try parts[1].integer(in: -maximumFrameSide...maximumFrameSide)
    let w = try parts[2].integer(in: 0...maximumFrameSide)
    let h = try parts[3].integer(in: 0...maximumFrameSide)
    return ClipRect(x0: x, y0: y, x1: x + w, y1: y + h)
}
