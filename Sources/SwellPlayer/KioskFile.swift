import SwellDisplay
import SwellInput
import SwellJSON
import SwellLoop
import SwellRaster
import SwellScenes
import SwellService

/// A kiosk file that does not describe a plan: every problem found, each naming its JSON path.
public struct KioskFileError: Error, CustomStringConvertible {
    public let file: String
    public let problems: [String]
    /// Text that is not JSON (or not readable) as opposed to a plan that does not check out.
    public let isSyntax: Bool

    public init(file: String, problems: [String], isSyntax: Bool = false) {
        self.file = file
        self.problems = problems
        self.isSyntax = isSyntax
    }

    public var description: String {
        if problems.count == 1 { return "\(file): \(problems[0])" }
        return "\(file): \(problems.count) problems:\n" + problems.map { "  " + $0 }.joined(separator: "\n")
    }
}

/// Parses a kiosk file (`kiosk/1`; docs/kiosk.md, "The kiosk file") into a plan. Every problem
/// is found in one pass, one line each naming its JSON path. File names in it are relative to
/// the kiosk file's folder; a content with no `/` and no `.json` is a built-in scene's name.
///
///     {"format": "kiosk/1",
///      "outputs": [{"connector": "HDMI-A-1", "mode": "1920x1080@60", "rotate": 90,
///                   "content": "menu.json",
///                   "wall": {"canvas": "3840x2160", "viewport": [0, 0, 1920, 1080]}}],
///      "span": {"outputs": [{"connector": "HDMI-A-1", "at": [0, 0]}, …],
///               "layout": "row", "bezel": 40, "content": "wide.json"},     instead of outputs
///      "driver": "auto", "device": "/dev/dri/card1", "size": "1280x720",   size: memory only
///      "touch": [{"device": "/dev/input/by-id/…", "output": "HDMI-A-1", "matrix": [a, b, c, d, e, f]},
///                {"matrix": [a, b, c, d, e, f]}],                            every other device
///      "clock": {"source": "realtime", "epoch": "2026-01-01T00:00:00Z", "period": 600},
///      "power": {"offHours": {"from": "22:00", "to": "07:00"}, "offAfterIdle": 300},
///      "threads": 4, "input": "demo-touches.json",
///      "schedule": {"timeZone": …, "default": …, "rules": […]}   or "schedule.json" (a schedule/1 file)
///      "api": {"listen": "0.0.0.0:8443", "tokens": "/etc/swell/tokens.json",
///              "certificate": "kiosk.pem", "key": "kiosk.key", "plainHTTP": false, "uploadLimit": 64}
///      "contentFolder": "/data/cafe"      every file the scenes reach lies in it (default: each scene's folder)
///
/// `contentExists`: when given, a content of the inline schedule that it says does not exist is a
/// problem naming its JSON path (the command passes `fileExists`; a schedule in a file of its own,
/// `plan.scheduleFile`, is read with `parseScheduleFile`).
public func parseKioskFile(
    bytes: [UInt8], name: String, contentExists: ((String) -> Bool)? = nil
) throws(KioskFileError) -> KioskPlan {
    try readKioskJSON(bytes: bytes, name: name, contentExists: contentExists) { $0.plan($1) }
}

/// The kiosk file's or schedule file's JSON in `bytes` read by `read` with a reader of its own,
/// relative to `name`'s folder: the value, or every problem the reader found (or the syntax error).
func readKioskJSON<Value>(
    bytes: [UInt8], name: String, contentExists: ((String) -> Bool)?,
    _ read: (inout KioskFileReader, JSONField) -> Value?
) throws(KioskFileError) -> Value {
    let root: JSONValue
    do {
        root = try parseJSON(bytes)
    } catch {
        throw KioskFileError(file: name, problems: ["\(error) (not valid JSON)"], isSyntax: true)
    }
    var reader = KioskFileReader(folder: folder(of: name))
    reader.contentExists = contentExists
    let value = read(&reader, JSONField(root: root))
    guard let value, reader.problems.isEmpty else { throw KioskFileError(file: name, problems: reader.problems) }
    return value
}

/// The folder part of `path` with its slash ("" for a bare file name).
func folder(of path: String) -> String {
    path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
}

/// Whether `name` could be a DRM connector's name as the kernel spells them (HDMI-A-1, DP-2,
/// eDP-1, DSI-1, Virtual-1, Unknown20-1…): a type, a dash, a number.
public func isConnectorName(_ name: String) -> Bool {
    guard let dash = name.lastIndex(of: "-"), dash != name.startIndex else { return false }
    let number = name[name.index(after: dash)...]
    let type = name[..<dash]
    return !number.isEmpty && number.allSatisfy(\.isASCII) && Int(number) != nil
        && type.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }
}

/// Reads a kiosk file's JSON, gathering problems rather than stopping at the first.
struct KioskFileReader {
    let folder: String
    private var list = ProblemList()
    var problems: [String] { list.problems }
    /// The connectors the outputs or span name, read even when they have problems (for the
    /// touch section's checks).
    var connectorNames: [String] = []
    /// When set, a schedule's content file it says does not exist is a problem (at load).
    var contentExists: ((String) -> Bool)?

    init(folder: String) {
        self.folder = folder
    }

    mutating func check<T>(_ body: () throws(JSONFieldError) -> T) -> T? { list.check(body) }

    /// Records a member not in `allowed` (the first one) and says whether `field` is an object at
    /// all, so that the rest of an object with a misspelt key is still read.
    mutating func isObject(_ field: JSONField, allowed: [String]) -> Bool {
        guard case .object = field.value else {
            _ = check { () throws(JSONFieldError) in try field.object() }
            return false
        }
        _ = check { () throws(JSONFieldError) in try field.rejectUnknownMembers(allowed: allowed) }
        return true
    }

    mutating func problem(_ field: JSONField, _ message: String) {
        list.problems.append(field.failure(message).description)
    }

    /// A member that may be absent (a problem when it is not an object's member at all).
    mutating func optional(_ field: JSONField, _ key: String) -> JSONField? {
        check { () throws(JSONFieldError) in try field.optional(key) } ?? nil
    }

    mutating func plan(_ root: JSONField) -> KioskPlan? {
        let allowed = [
            "format", "outputs", "span", "driver", "device", "size", "touch", "clock", "power", "threads", "input",
            "schedule", "api", "contentFolder",
        ]
        guard isObject(root, allowed: allowed) else { return nil }
        _ = check { () throws(JSONFieldError) in try root["format"].oneOf(["kiosk/1"]) }
        let layout = self.layout(root)
        var plan = KioskPlan(layout: layout ?? .outputs([]))
        readDisplay(root, into: &plan)
        if let touch = optional(root, "touch") { plan.touch = self.touch(touch, outputs: connectorNames) }
        if let clock = optional(root, "clock") { plan.clock = self.clock(clock) }
        if let power = optional(root, "power") { readPower(power, into: &plan) }
        if let threads = optional(root, "threads") {
            plan.threads = check { () throws(JSONFieldError) in try threads.integer(in: 1...256) }
        }
        if let input = optional(root, "input") { plan.script = file(input) }
        if let api = optional(root, "api") { plan.api = management(api) }
        if let folder = optional(root, "contentFolder") { plan.contentFolder = file(folder) }
        if let schedule = optional(root, "schedule") {
            // A span shows one content on all its outputs: its rules name none.
            var outputs = connectorNames
            if case .span? = layout { outputs = [] }
            if case .string = schedule.value {
                plan.scheduleFile = file(schedule)
            } else {
                plan.schedule = self.schedule(schedule, standalone: false, outputs: outputs)
            }
        }
        return layout == nil ? nil : plan
    }

    private mutating func layout(_ root: JSONField) -> KioskPlan.Layout? {
        let outputs = optional(root, "outputs")
        let span = optional(root, "span")
        switch (outputs, span) {
        case (let outputs?, nil): return self.outputs(outputs).map { .outputs($0) }
        case (nil, let span?): return self.span(span).map { .span($0) }
        case (_?, _?):
            problem(root, "give \"outputs\" (each its own content) or \"span\" (one content over them), not both")
        case (nil, nil):
            problem(root, "missing required member \"outputs\" (or \"span\"): what each display shows")
        }
        return nil
    }

    private mutating func outputs(_ field: JSONField) -> [KioskPlan.Output]? {
        guard let items = check({ () throws(JSONFieldError) in try field.array(count: 1...64) }) else { return nil }
        var outputs: [KioskPlan.Output] = []
        for item in items {
            let allowed = ["connector", "mode", "rotate", "content", "wall"]
            guard isObject(item, allowed: allowed) else {
                outputs.append(KioskPlan.Output(content: ""))
                continue
            }
            let request = connector(item, required: items.count > 1)
            let content = check { () throws(JSONFieldError) in try item["content"] }.flatMap { contentName($0) }
            let name = request?.connectorName ?? ""
            var output = KioskPlan.Output(
                connector: name.isEmpty ? nil : name, mode: request?.mode, rotation: request?.rotation ?? .none,
                content: content ?? "")
            if let wall = optional(item, "wall") {
                if items.count > 1 {
                    problem(wall, "a wall's tile is the one display of its box: give one output with it")
                }
                output.viewport = viewport(wall)
            }
            outputs.append(output)
        }
        connectorNames = outputs.compactMap(\.connector)
        checkDistinct(items, outputs.map(\.connector))
        return problems.isEmpty ? outputs : nil
    }

    /// Two entries for one connector would be two contents for one output.
    private mutating func checkDistinct(_ items: [JSONField], _ names: [String?]) {
        for (index, name) in names.enumerated() {
            guard let name, let first = names.firstIndex(where: { $0?.lowercased() == name.lowercased() }),
                first < index
            else { continue }
            problem(
                items[index],
                "\(name) is already \(items[first].path): one output shows one content; give each connector once")
        }
    }

    /// An output's connector, mode and rotation (nil after a problem). The connector may be left
    /// out only when `required` is false.
    private mutating func connector(_ item: JSONField, required: Bool) -> DRMOutputRequest? {
        var request = DRMOutputRequest(connectorName: "")
        var valid = true
        if let name = optional(item, "connector") {
            if let text = check({ () throws(JSONFieldError) in try name.string() }) {
                if isConnectorName(text) {
                    request.connectorName = text
                } else {
                    problem(
                        name,
                        "\"\(text)\" is not a connector name such as HDMI-A-1, DP-2 or DSI-1 ('swell displays' lists them)"
                    )
                    valid = false
                }
            } else {
                valid = false
            }
        } else if required {
            problem(item, "missing required member \"connector\": with several outputs each names its connector")
            valid = false
        }
        if let mode = optional(item, "mode") {
            if let text = check({ () throws(JSONFieldError) in try mode.string() }) {
                request.mode = ModeRequest(text: text)
                if request.mode == nil {
                    problem(mode, "expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 1920x1080@60, got \"\(text)\"")
                    valid = false
                }
            }
        }
        if let rotate = optional(item, "rotate") {
            let degrees = check { () throws(JSONFieldError) in try rotate.integer(in: 0...270) }
            if let degrees, let rotation = Rotation(rawValue: degrees) {
                request.rotation = rotation
            } else {
                if degrees != nil { problem(rotate, "expected 0, 90, 180 or 270 (degrees clockwise)") }
                valid = false
            }
        }
        return valid ? request : nil
    }

    /// A file name, relative to the kiosk file's folder; a built-in scene's name stays a name.
    mutating func contentName(_ field: JSONField) -> String? {
        guard let text = check({ () throws(JSONFieldError) in try field.string() }) else { return nil }
        if !text.contains("/") && !text.hasSuffix(".json") {
            guard builtInScene(named: text) != nil else {
                problem(
                    field,
                    "\"\(text)\" is neither a built-in scene (\(builtInScenes.map(\.name).joined(separator: ", "))) "
                        + "nor a .json scene file")
                return nil
            }
            return text
        }
        return file(field)
    }

    /// A file named by `field`, relative to the kiosk file's folder.
    mutating func file(_ field: JSONField) -> String? {
        guard let text = check({ () throws(JSONFieldError) in try field.string() }) else { return nil }
        guard !text.isEmpty else {
            problem(field, "expected a file name, got an empty string")
            return nil
        }
        return text.hasPrefix("/") ? text : folder + text
    }

    private mutating func viewport(_ wall: JSONField) -> Viewport? {
        guard isObject(wall, allowed: ["canvas", "viewport"]) else { return nil }
        let canvas = check { () throws(JSONFieldError) in try wall["canvas"] }.flatMap { size($0) }
        let rect = check { () throws(JSONFieldError) in try wall["viewport"].array(count: 4...4) }
        let numbers = rect?.compactMap { item in check { () throws(JSONFieldError) in try item.integer(in: 0...16384) }
        }
        guard let canvas, let numbers, numbers.count == 4 else { return nil }
        let box = ClipRect(x0: numbers[0], y0: numbers[1], x1: numbers[0] + numbers[2], y1: numbers[1] + numbers[3])
        guard numbers[2] >= 1, numbers[3] >= 1,
            let viewport = Viewport(canvasWidth: canvas.width, canvasHeight: canvas.height, rect: box)
        else {
            problem(
                wall,
                "the viewport [X, Y, W, H] must lie inside the \(canvas.width)x\(canvas.height) canvas "
                    + "(W, H ≥ 1; X + W ≤ \(canvas.width), Y + H ≤ \(canvas.height))")
            return nil
        }
        return viewport
    }

    /// "WxH" with sides 1...16384.
    private mutating func size(_ field: JSONField) -> (width: Int, height: Int)? {
        guard let text = check({ () throws(JSONFieldError) in try field.string() }) else { return nil }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (1...16384).contains(width),
            (1...16384).contains(height)
        else {
            problem(field, "expected WIDTHxHEIGHT with sides 1...16384, such as 1920x1080, got \"\(text)\"")
            return nil
        }
        return (width, height)
    }

    private mutating func span(_ field: JSONField) -> KioskPlan.Span? {
        let allowed = ["outputs", "layout", "bezel", "content"]
        guard isObject(field, allowed: allowed) else { return nil }
        let content = check { () throws(JSONFieldError) in try field["content"] }.flatMap { contentName($0) }
        let bezel = optional(field, "bezel").flatMap { bezel in
            check { () throws(JSONFieldError) in try bezel.integer(in: 0...100_000) }
        }
        let layout = optional(field, "layout").flatMap { layout in
            check { () throws(JSONFieldError) in try layout.oneOf(["row", "column"]) }
        }
        guard let items = check({ () throws(JSONFieldError) in try field["outputs"].array(count: 2...64) }) else {
            return nil
        }
        var requests: [DRMOutputRequest] = []
        var positions: [SpanLayout.Position] = []
        for item in items {
            let allowed = ["connector", "mode", "rotate", "at"]
            guard isObject(item, allowed: allowed), let request = connector(item, required: true) else {
                requests.append(DRMOutputRequest(connectorName: ""))
                continue
            }
            requests.append(request)
            if let at = optional(item, "at") {
                let pair = check { () throws(JSONFieldError) in try at.array(count: 2...2) }
                let numbers = pair?.compactMap { number in
                    check { () throws(JSONFieldError) in try number.integer(in: 0...100_000) }
                }
                if let numbers, numbers.count == 2 {
                    positions.append(SpanLayout.Position(name: request.connectorName, x: numbers[0], y: numbers[1]))
                }
            }
        }
        connectorNames = requests.map(\.connectorName).filter { !$0.isEmpty }
        checkDistinct(items, requests.map { $0.connectorName.isEmpty ? nil : $0.connectorName })
        var arrangement: SpanLayout.Arrangement = layout == "column" ? .column : .row
        if !positions.isEmpty {
            if positions.count != items.count {
                problem(field, "\"at\" places the outputs itself: give it for every output of the span, or for none")
            }
            if layout != nil { problem(field, "\"at\" places the outputs itself: leave \"layout\" out") }
            arrangement = .positions(positions)
        }
        guard let content, problems.isEmpty else { return nil }
        return KioskPlan.Span(outputs: requests, arrangement: arrangement, bezel: bezel ?? 0, content: content)
    }

    private mutating func readDisplay(_ root: JSONField, into plan: inout KioskPlan) {
        if let driver = optional(root, "driver") {
            let choices = OutputChoice.allCases.map(\.rawValue)
            if let text = check({ () throws(JSONFieldError) in try driver.oneOf(choices) }),
                let choice = OutputChoice(rawValue: text)
            {
                plan.driver = choice
                let single = plan.connectors.count == 1 && plan.connectors[0] == nil
                if choice == .fbdev || choice == .memory, !single {
                    problem(driver, "\(text) drives one display: give one output and no connector")
                }
            }
        }
        if let device = optional(root, "device") {
            plan.device = check { () throws(JSONFieldError) in try device.string() }
        }
        if let sizeField = optional(root, "size") {
            if plan.driver != .memory {
                problem(sizeField, "the panel size is for \"driver\": \"memory\" (no display)")
            }
            if let size = size(sizeField) { (plan.memoryWidth, plan.memoryHeight) = size }
        }
    }

    private mutating func touch(_ field: JSONField, outputs: [String]) -> KioskPlan.Touch {
        var touch = KioskPlan.Touch()
        guard let items = check({ () throws(JSONFieldError) in try field.array(count: 0...64) }) else { return touch }
        var everyDevice: JSONField?
        var named: [(String, JSONField)] = []
        for item in items {
            guard isObject(item, allowed: ["device", "output", "matrix"]) else { continue }
            let matrix = optional(item, "matrix").flatMap { calibration($0) }
            guard let deviceField = optional(item, "device") else {
                if let first = everyDevice {
                    problem(item, "every device's calibration is already \(first.path); give one")
                }
                everyDevice = item
                if let output = optional(item, "output") {
                    problem(output, "an output goes with a \"device\": which device's touches reach it")
                }
                if let matrix {
                    touch.calibration = matrix
                } else {
                    problem(item, "give a \"device\", a \"matrix\", or both")
                }
                continue
            }
            guard let device = check({ () throws(JSONFieldError) in try deviceField.string() }) else { continue }
            if let first = named.first(where: { $0.0 == device }) {
                problem(deviceField, "\(device) is already \(first.1.path); name each device once")
            }
            named.append((device, item))
            if let matrix { touch.calibrations.append(KioskPlan.DeviceCalibration(device: device, matrix: matrix)) }
            if let output = optional(item, "output"),
                let name = check({ () throws(JSONFieldError) in try output.string() })
            {
                let known = outputs
                if let match = known.first(where: { $0.lowercased() == name.lowercased() }) {
                    touch.routes.append(TouchRouting.Request(device: device, output: match))
                } else {
                    let list = known.isEmpty ? "name the output's \"connector\" first" : known.joined(separator: ", ")
                    problem(output, "\"\(name)\" is not an output of this kiosk (\(list))")
                }
            }
        }
        return touch
    }

    private mutating func calibration(_ field: JSONField) -> TouchCalibration? {
        guard let items = check({ () throws(JSONFieldError) in try field.array(count: 6...6) }) else { return nil }
        let numbers = items.compactMap { item in check { () throws(JSONFieldError) in try item.number() } }
        guard numbers.count == 6 else { return nil }
        return TouchCalibration(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    private mutating func clock(_ field: JSONField) -> RealtimeSceneClock? {
        guard isObject(field, allowed: ["source", "epoch", "period"]) else { return nil }
        let source = check { () throws(JSONFieldError) in try field["source"].oneOf(["monotonic", "realtime"]) }
        let epochField = optional(field, "epoch")
        let periodField = optional(field, "period")
        guard source == "realtime" else {
            if source != nil, let extra = epochField ?? periodField {
                problem(extra, "an epoch and a period go with \"source\": \"realtime\"")
            }
            return nil
        }
        var epoch = 0.0
        if let epochField {
            let value: Double?
            if case .number(let number) = epochField.value {
                value = number
            } else {
                value = check { () throws(JSONFieldError) in try epochField.string() }.flatMap {
                    RealtimeSceneClock.epoch(parsing: $0)
                }
            }
            if let value, value.isFinite {
                epoch = value
            } else {
                problem(epochField, "expected Unix seconds or a UTC time such as \"2026-01-01T00:00:00Z\"")
            }
        }
        let period = periodField.flatMap { period in
            check { () throws(JSONFieldError) in try period.number(in: 0.001...1e9) }
        }
        return RealtimeSceneClock(epoch: epoch, period: period)
    }

    private mutating func readPower(_ field: JSONField, into plan: inout KioskPlan) {
        guard isObject(field, allowed: ["offHours", "offAfterIdle"]) else { return }
        if let idle = optional(field, "offAfterIdle") {
            plan.screenOffAfter = check { () throws(JSONFieldError) in try idle.number(in: 1...1e9) }
        }
        guard let hours = optional(field, "offHours"), isObject(hours, allowed: ["from", "to"]) else { return }
        let ends = ["from", "to"].map { key -> Int? in
            guard let end = check({ () throws(JSONFieldError) in try hours[key] }),
                let text = check({ () throws(JSONFieldError) in try end.string() })
            else { return nil }
            guard let minutes = OffHours.minutes(parsing: text) else {
                problem(end, "expected a local time HH:MM from 00:00 to 23:59, got \"\(text)\"")
                return nil
            }
            return minutes
        }
        guard let from = ends[0], let to = ends[1] else { return }
        guard let offHours = OffHours(from: from, to: to) else {
            problem(hours, "\"from\" and \"to\" are the same time: leave \"offHours\" out to keep the screen on")
            return
        }
        plan.offHours = offHours
    }
}
