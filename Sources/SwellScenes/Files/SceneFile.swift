import SwellJSON
import SwellRaster

/// Why a scene file (or input script) was rejected: every problem found, each naming the JSON
/// path, the value and what is allowed, so one run of the validator shows them all.
public struct SceneFileError: Error, CustomStringConvertible {
    public let file: String
    public let problems: [String]

    public init(file: String, problems: [String]) {
        self.file = file
        self.problems = problems
    }

    public var description: String {
        if problems.count == 1 { return "\(file): \(problems[0])" }
        return "\(file): \(problems.count) problems:\n" + problems.map { "  " + $0 }.joined(separator: "\n")
    }
}

/// The JSON document in `bytes`, or the error naming `name` that every Swell file format reports
/// for text that is not JSON at all (scene files, touch scripts, dump manifests).
func parseDocument(_ bytes: [UInt8], name: String) throws(SceneFileError) -> JSONValue {
    do {
        return try parseJSON(bytes)
    } catch {
        throw SceneFileError(file: name, problems: ["\(error) (not valid JSON)"])
    }
}

/// A scene file, validated: the layers bottom to top and the background.
///
/// Format `scene/1` (JSON):
///
///     {"format": "scene/1",                       optional
///      "background": "#RRGGBB",                    optional; default: the bottom scene's
///      "scene": "ripples", "parameters": {...}}    one scene, or
///      "layers": [{"scene": "flow", "parameters": {...}}, {"scene": "ripples"}]
///
/// Parameters are those `swell scenes` lists; colours are "#RRGGBB", "#RRGGBBAA" or [r, g, b(, a)]
/// in 0...1. Missing parameters take their defaults.
public struct SceneFile {
    public struct Layer {
        public let descriptor: SceneDescriptor
        public let settings: SceneSettings
        /// The element's name for buttons' actions, and where it lies (nil: the whole screen).
        public var id: String? = nil
        public var frame: ElementFrame? = nil
    }

    public let layers: [Layer]
    public let background: Color?
    /// The page's height in pixels when it scrolls (`"height"`; nil: the screen's).
    public var height: Int? = nil

    public init(layers: [Layer], background: Color?) {
        self.layers = layers
        self.background = background
    }

    /// Builds the player; `media[i]` is what layer i shows that was loaded for it (pictures, a
    /// video), and `context` what its scenes share (one text service for every text element).
    public func makePlayer(media: [SceneMedia], threads: Int = 1, context: SceneContext = SceneContext()) -> ScenePlayer
    {
        let scenes = layers.enumerated().map { index, layer in
            layer.descriptor.make(layer.settings, index < media.count ? media[index] : .none, context)
        }
        let placements = layers.map { ScenePlayer.Placement(id: $0.id, frame: $0.frame) }
        let player = ScenePlayer(layers: scenes, background: background, threads: threads, placements: placements)
        player.pageHeight = height
        return player
    }
}

/// Parses and validates a scene file into a player. `loadImages(folder)` is called for each
/// layer with a `folder` parameter (the slideshow) and returns its images (decoded on demand, so
/// it should check what it can up front: that the files exist and are images), or throws an
/// error whose description says why (reported with the parameter's JSON path). `loadVideo` does
/// the same for each `video` layer: it opens the file the request names (resolved against the
/// scene file's folder) and checks that it plays. `threads` is passed to the player's banded
/// renderer. `readFile(path)` reads a text element's `file`, named relative to the scene file
/// `name` (see `loadTextFiles`). The scenes share `context` (its text service checks the fonts
/// the file names and then sets every text of the page; `loadPageGraph` gives all pages one).
/// With `content`, a file an element names outside that folder is refused before any is read.
public func loadSceneFile(
    bytes: [UInt8], name: String, threads: Int = 1, context: SceneContext = SceneContext(),
    content: ContentRoot? = nil,
    readFile: (String) throws -> [UInt8] = { _ in throw NoFileAccess() },
    loadVideo: (SceneVideo.Request) throws -> SceneVideo = { _ in throw NoFileAccess() },
    loadImages: (String) throws -> SceneImages
) throws(SceneFileError) -> ScenePlayer {
    let root = try parseDocument(bytes, name: name)
    var list = ProblemList()
    let parsed = parseSceneFile(JSONField(root: root), fonts: FontCheck(text: context.text), problems: &list)
    if let content, let parsed {
        let outside = content.problems(in: parsed, name: name, root: root)
        guard outside.isEmpty else { throw SceneFileError(file: name, problems: outside) }
    }
    let file = parsed.map { resolvingTextFiles($0, from: name) }
    var media: [SceneMedia] = []
    if let file {
        for (index, layer) in file.layers.enumerated() {
            var loaded = SceneMedia.none
            if layer.descriptor.parameters.contains(where: { $0.name == "folder" }) {
                let folder = layer.settings.text("folder")
                do {
                    loaded.images = try loadImages(folder)
                } catch {
                    list.problems.append("\(parameterPath("folder", of: index, in: file, root: root)): \(error)")
                }
            }
            if layer.descriptor.name == VideoScene.descriptor.name {
                let request = SceneVideo.request(layer.settings, from: name)
                do {
                    loaded.video = try loadVideo(request)
                } catch {
                    list.problems.append(
                        "\(parameterPath("file", of: index, in: file, root: root)): \"\(request.file)\": \(error)")
                }
            }
            media.append(loaded)
        }
    }
    let texts = file.map { loadTextFiles($0, root: root, read: readFile, problems: &list) } ?? [:]
    guard list.problems.isEmpty, let file else { throw SceneFileError(file: name, problems: list.problems) }
    let player = file.makePlayer(media: media, threads: threads, context: context)
    for (path, text) in texts { player.showFileText(path, text) }
    return player
}

/// The JSON path of layer `index`'s parameter `parameter`, as the file spells it.
func parameterPath(_ parameter: String, of index: Int, in file: SceneFile, root: JSONValue) -> String {
    file.layers.count == 1 && !isLayered(root)
        ? "$.parameters.\(parameter)" : "$.layers[\(index)].parameters.\(parameter)"
}

private func isLayered(_ root: JSONValue) -> Bool {
    if case .object(let object) = root { return object["layers"] != nil }
    return false
}

/// Validates the document, recording every problem in `problems`; nil when any was found.
func parseSceneFile(_ root: JSONField, fonts: FontCheck, problems list: inout ProblemList) -> SceneFile? {
    let before = list.problems.count
    guard let object = list.check({ () throws(JSONFieldError) in try root.object() }) else { return nil }
    let allowed = ["format", "background", "scene", "parameters", "layers", "height"]
    for key in object.keys where !allowed.contains(key) {
        list.problems.append(
            "\(root.path)\(JSONField.pathComponentForKey(key)): unknown member; allowed here: \(allowed.joined(separator: ", "))"
        )
    }
    if let format = list.check({ () throws(JSONFieldError) in try root.optional("format") }) ?? nil {
        _ = list.check { () throws(JSONFieldError) in try format.oneOf(["scene/1"]) }
    }
    var background: Color?
    if let field = list.check({ () throws(JSONFieldError) in try root.optional("background") }) ?? nil {
        if let c = list.check({ () throws(JSONFieldError) in try field.color() }) {
            background = Color(r: c.r, g: c.g, b: c.b, a: 1)
        }
    }
    var height: Int?
    if let field = list.check({ () throws(JSONFieldError) in try root.optional("height") }) ?? nil {
        height = list.check { () throws(JSONFieldError) in try field.integer(in: 1...100_000) }
    }
    var layers: [SceneFile.Layer] = []
    let hasScene = object["scene"] != nil
    let hasLayers = object["layers"] != nil
    if hasScene && hasLayers {
        list.problems.append("\(root.path): give either \"scene\" (one scene) or \"layers\" (several), not both")
    } else if hasScene {
        if let layer = parseLayer(root, allowsFileMembers: true, fonts: fonts, problems: &list) { layers.append(layer) }
    } else if hasLayers {
        if let fields = list.check({ () throws(JSONFieldError) in try root["layers"].array(count: 1...64) }) {
            for field in fields {
                if let layer = parseLayer(field, allowsFileMembers: false, fonts: fonts, problems: &list) {
                    layers.append(layer)
                }
            }
        }
    } else {
        list.problems.append(
            "\(root.path): missing \"scene\" (one of \(builtInScenes.map(\.name).joined(separator: ", "))) or \"layers\""
        )
    }
    checkActions(layers, root: root, problems: &list)
    checkLiveCounts(layers, root: root, problems: &list)
    checkHiddenButtons(layers, root: root, problems: &list)
    guard list.problems.count == before else { return nil }
    var file = SceneFile(layers: layers, background: background)
    file.height = height
    return file
}

/// One layer: {"scene": NAME, "parameters": {...}}.
func parseLayer(
    _ field: JSONField, allowsFileMembers: Bool, fonts: FontCheck, problems list: inout ProblemList
) -> SceneFile.Layer? {
    let before = list.problems.count
    guard let object = list.check({ () throws(JSONFieldError) in try field.object() }) else { return nil }
    if !allowsFileMembers {
        for key in object.keys where !["scene", "parameters", "id", "frame"].contains(key) {
            list.problems.append(
                "\(field.path)\(JSONField.pathComponentForKey(key)): unknown member; allowed here: scene, parameters, id, frame"
            )
        }
    }
    let names = builtInScenes.map(\.name)
    guard let name = list.check({ () throws(JSONFieldError) in try field["scene"].oneOf(names) }),
        let descriptor = builtInScene(named: name)
    else { return nil }
    var settings = descriptor.defaultSettings()
    if let parameters = list.check({ () throws(JSONFieldError) in try field.optional("parameters") }) ?? nil,
        let members = list.check({ () throws(JSONFieldError) in try parameters.object() })
    {
        for key in members.keys {
            guard let spec = descriptor.parameters.first(where: { $0.name == key }) else {
                list.problems.append(
                    "\(parameters.path)\(JSONField.pathComponentForKey(key)): \"\(name)\" has no parameter \"\(key)\"; "
                        + "it has: \(descriptor.parameters.map(\.name).joined(separator: ", "))")
                continue
            }
            guard let value = list.check({ () throws(JSONFieldError) in try parameters[key] }) else { continue }
            if let parsed = list.check({ () throws(JSONFieldError) in try parseParameter(value, spec) }) {
                settings.set(key, parsed)
                // A font the file names must be installed: drawing it in another would hide the
                // mistake (only a default font may fall back, see ButtonScene's LabelText).
                if key == "font", case .text(let font) = parsed, let problem = fonts.problem(font) {
                    list.problems.append("\(value.path): \(problem)")
                }
            }
        }
        if name == "text" { checkTextSource(members.keys, parameters: parameters, problems: &list) }
    }
    var layer = SceneFile.Layer(descriptor: descriptor, settings: settings)
    if !allowsFileMembers {
        if let id = list.check({ () throws(JSONFieldError) in try field.optional("id") }) ?? nil {
            layer.id = list.check { () throws(JSONFieldError) in try id.string() }
        }
        if let frame = list.check({ () throws(JSONFieldError) in try field.optional("frame") }) ?? nil {
            layer.frame = parseElementFrame(frame, problems: &list)
        }
    }
    guard list.problems.count == before else { return nil }
    return layer
}

/// Every button's action must name an element of the page, of the kind the action acts on,
/// and ids must be unique.
func checkActions(_ layers: [SceneFile.Layer], root: JSONField, problems list: inout ProblemList) {
    var seen: [String: Int] = [:]
    for (index, layer) in layers.enumerated() {
        guard let id = layer.id else { continue }
        if let first = seen[id] {
            list.problems.append("\(root.path).layers[\(index)].id: \"\(id)\" is already the id of $.layers[\(first)]")
        } else {
            seen[id] = index
        }
    }
    for (index, layer) in layers.enumerated() where ["button", "field"].contains(layer.descriptor.name) {
        let kind = layer.settings.text("action")
        guard kind != "none", let scene = PageAction.targetScene[kind] else { continue }
        let path = "\(root.path).layers[\(index)].parameters.target"
        let target = layer.settings.text("target")
        let candidates = layers.filter { $0.descriptor.name == scene }.compactMap(\.id)
        let allowed =
            candidates.isEmpty
            ? "give a \"\(scene)\" element an \"id\" and name it here"
            : "allowed: \(candidates.map { "\"\($0)\"" }.joined(separator: ", "))"
        guard let targetIndex = seen[target] else {
            list.problems.append("\(path): \"\(target)\" names no element of this page; \(allowed)")
            continue
        }
        if layers[targetIndex].descriptor.name != scene {
            list.problems.append(
                "\(path): \"\(target)\" is a \"\(layers[targetIndex].descriptor.name)\"; \"\(kind)\" acts on a \"\(scene)\"; \(allowed)"
            )
        }
    }
}

/// A button no touch can reach is refused: only buttons and fields capture touches (a touch
/// beginning on one goes to the topmost one there, and every other element lets touches through
/// to what is under it), so a button is unreachable when a later (higher) button or field's
/// frame contains its whole frame. Frames follow the screen, so this is checked on a landscape
/// and a portrait 1080p screen.
func checkHiddenButtons(_ layers: [SceneFile.Layer], root: JSONField, problems list: inout ProblemList) {
    let captures = layers.map { ["button", "field"].contains($0.descriptor.name) }
    for (width, height) in [(1920, 1080), (1080, 1920)] {
        let rects = layers.map { ($0.frame ?? .fullScreen).rect(width: width, height: height) }
        for index in layers.indices where captures[index] && !rects[index].isEmpty {
            guard
                let cover = (index + 1..<layers.count).first(where: { later in
                    captures[later] && rects[later].intersection(rects[index]) == rects[index]
                })
            else { continue }
            let problem =
                "\(root.path).layers[\(index)].frame: this \(layers[index].descriptor.name) lies wholly under "
                + "$.layers[\(cover)] (a \(layers[cover].descriptor.name), which takes every touch there) "
                + "on a \(width)x\(height) screen; move or shrink one, or put this one later"
            if !list.problems.contains(where: { $0.hasPrefix("\(root.path).layers[\(index)].frame: this") }) {
                list.problems.append(problem)
            }
        }
    }
}

func parseParameter(_ field: JSONField, _ spec: ParameterSpec) throws(JSONFieldError) -> ParameterValue {
    switch spec.kind {
    case .number(let range): return .number(try field.number(in: range))
    case .integer(let range): return .number(Double(try field.integer(in: range)))
    case .color:
        let c = try field.color()
        return .color(Color(r: c.r, g: c.g, b: c.b, a: c.a))
    case .bool: return .bool(try field.bool())
    case .text:
        let text = try field.string()
        guard !text.isEmpty else { throw field.failure("expected a non-empty string") }
        return .text(text)
    case .choice(let options):
        let text = try field.string()
        guard options.contains(text) else { throw field.failure("expected \(spec.allowed), got \"\(text)\"") }
        return .text(text)
    }
}

extension JSONField {
    /// ".key" or ["key"], as JSON paths write a member.
    static func pathComponentForKey(_ key: String) -> String {
        let simple =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0) }
        return simple ? ".\(key)" : "[\"\(key)\"]"
    }
}
