import SwellJSON
import SwellRaster

/// How one playlist item gives way to the next.
public struct PlaylistTransition: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The outgoing item wiped away upwards over the incoming one, above the page switch's
        /// rising wave (`PageWipe`), easeOut.
        case wipe
        /// The incoming item at once.
        case cut
        /// The outgoing item over the incoming one, its alpha falling linearly from 1 to 0.
        case crossfade
    }

    public var kind: Kind
    /// Seconds (0: a cut, whatever the kind).
    public var duration: Double

    public init(kind: Kind, duration: Double) {
        self.kind = kind
        self.duration = duration
    }

    /// The playlist's default: the page switch's wipe, 1 s.
    public static let standard = PlaylistTransition(kind: .wipe, duration: ScenePlayer.pageTransition)
}

/// A playlist file, validated: the items shown in turn, looping, each for its duration.
///
/// Format `playlist/1` (JSON; docs/pages.md, "Playlists"):
///
///     {"format": "playlist/1",                                required
///      "background": "#RRGGBB",                               optional; default black
///      "transition": {"kind": "wipe", "duration": 1},         optional; wipe | cut | crossfade
///      "tap": {"action": "pause", "seconds": 30},             optional; none | next | pause
///      "items": [{"page": "menu.json", "duration": 12},
///                {"picture": "cake.jpg", "duration": 6, "scale": "fill"},
///                {"video": "waves.mp4", "duration": 10, "transition": {"kind": "cut"}}]}
///
/// Paths are relative to the playlist file (resolved here).
public struct PlaylistFile: Sendable {
    public enum Content: Equatable, Sendable {
        /// A `scene/1` page file (and the pages its buttons reach).
        case page(String)
        /// A PNG or JPEG, scaled to fill the screen or fit it between bars.
        case picture(String, fills: Bool)
        /// A video file, muted, looped, fitted between bars.
        case video(String)

        /// The file, resolved.
        public var file: String {
            switch self {
            case .page(let file), .picture(let file, _), .video(let file): file
            }
        }

        /// The member naming it: page, picture or video.
        public var member: String {
            switch self {
            case .page: "page"
            case .picture: "picture"
            case .video: "video"
            }
        }
    }

    public struct Item: Equatable, Sendable {
        public var content: Content
        public var duration: Double
        /// The transition to the next item (nil: the playlist's).
        public var transition: PlaylistTransition?
        /// Its JSON path, "$.items[2]", for messages.
        public var path: String
    }

    public enum Tap: Equatable, Sendable {
        /// Touches go to the item only.
        case none
        /// A touch moves on to the next item at once (with the transition).
        case next
        /// A touch holds the item for that many more seconds from the touch.
        case pause(Double)
    }

    public var background: Color
    public var transition: PlaylistTransition
    public var tap: Tap
    public var items: [Item]

    /// The transition after item `index`.
    public func transition(after index: Int) -> PlaylistTransition { items[index].transition ?? transition }
}

/// Whether `bytes` is a JSON object whose "format" is "playlist/1" (anything else, JSON or not,
/// is left to the scene file loader and its messages).
public func isPlaylistDocument(_ bytes: [UInt8]) -> Bool {
    guard case .object(let object)? = try? parseJSON(bytes), case .string(let format)? = object["format"] else {
        return false
    }
    return format == "playlist/1"
}

/// Parses and validates a playlist file named `name` (its paths resolved against its folder);
/// every problem found, each with its JSON path, in one error. With `content`, an item's file
/// outside that folder is one (`ContentRoot`).
public func parsePlaylistFile(
    bytes: [UInt8], name: String, content: ContentRoot? = nil
) throws(SceneFileError) -> PlaylistFile {
    let root = JSONField(root: try parseDocument(bytes, name: name))
    var list = ProblemList()
    let parsed = parsePlaylist(root, name: name, content: content, problems: &list)
    guard list.problems.isEmpty, let parsed else { throw SceneFileError(file: name, problems: list.problems) }
    return parsed
}

func parsePlaylist(
    _ root: JSONField, name: String, content: ContentRoot? = nil, problems list: inout ProblemList
) -> PlaylistFile? {
    let before = list.problems.count
    guard list.check({ () throws(JSONFieldError) in try root.object() }) != nil else { return nil }
    _ = list.check { () throws(JSONFieldError) in
        try root.rejectUnknownMembers(allowed: ["format", "background", "transition", "tap", "items"])
    }
    _ = list.check { () throws(JSONFieldError) in try root["format"].oneOf(["playlist/1"]) }
    var background = Color(r: 0, g: 0, b: 0)
    if let field = list.check({ () throws(JSONFieldError) in try root.optional("background") }) ?? nil,
        let c = list.check({ () throws(JSONFieldError) in try field.color() })
    {
        background = Color(r: c.r, g: c.g, b: c.b, a: 1)
    }
    var transition = PlaylistTransition.standard
    if let field = list.check({ () throws(JSONFieldError) in try root.optional("transition") }) ?? nil,
        let parsed = list.check({ () throws(JSONFieldError) in try parseTransition(field) })
    {
        transition = parsed
    }
    var tap = PlaylistFile.Tap.none
    if let field = list.check({ () throws(JSONFieldError) in try root.optional("tap") }) ?? nil,
        let parsed = list.check({ () throws(JSONFieldError) in try parseTap(field) })
    {
        tap = parsed
    }
    var items: [PlaylistFile.Item] = []
    if let fields = list.check({ () throws(JSONFieldError) in try root["items"].array(count: 1...1000) }) {
        for (index, field) in fields.enumerated() {
            if let item = list.check({ () throws(JSONFieldError) in
                try parseItem(field, index: index, from: name, within: content)
            }) {
                items.append(item)
            }
        }
    }
    guard list.problems.count == before else { return nil }
    return PlaylistFile(background: background, transition: transition, tap: tap, items: items)
}

private func parseDuration(_ field: JSONField, allowsZero: Bool) throws(JSONFieldError) -> Double {
    let seconds = try field.number()
    guard seconds.isFinite, allowsZero ? seconds >= 0 : seconds > 0, seconds <= 1_000_000 else {
        throw field.failure(
            "expected a number of seconds \(allowsZero ? "from 0" : "above 0") up to 1000000, got \(field.value.excerpt)"
        )
    }
    return seconds
}

func parseTransition(_ field: JSONField) throws(JSONFieldError) -> PlaylistTransition {
    try field.rejectUnknownMembers(allowed: ["kind", "duration"])
    let kind = PlaylistTransition.Kind(
        rawValue: try field["kind"].oneOf(PlaylistTransition.Kind.allCases.map(\.rawValue)))!
    let duration = try field.optional("duration").map { field throws(JSONFieldError) in
        try parseDuration(field, allowsZero: true)
    }
    return PlaylistTransition(kind: kind, duration: kind == .cut ? 0 : duration ?? ScenePlayer.pageTransition)
}

func parseTap(_ field: JSONField) throws(JSONFieldError) -> PlaylistFile.Tap {
    let action = try field["action"].oneOf(["none", "next", "pause"])
    try field.rejectUnknownMembers(allowed: action == "pause" ? ["action", "seconds"] : ["action"])
    switch action {
    case "next": return .next
    case "pause": return .pause(try parseDuration(try field["seconds"], allowsZero: false))
    default: return .none
    }
}

func parseItem(
    _ field: JSONField, index: Int, from name: String, within folder: ContentRoot? = nil
) throws(JSONFieldError) -> PlaylistFile.Item {
    let object = try field.object()
    let kinds = ["page", "picture", "video"].filter { object[$0] != nil }
    guard kinds.count == 1 else {
        throw field.failure(
            kinds.isEmpty
                ? "give one of \"page\", \"picture\" or \"video\""
                : "give only one of \"page\", \"picture\" or \"video\"")
    }
    let kind = kinds[0]
    try field.rejectUnknownMembers(
        allowed: [kind, "duration", "transition"] + (kind == "picture" ? ["scale"] : []))
    let fileField = try field[kind]
    let file = try fileField.string()
    guard !file.isEmpty else { throw fileField.failure("expected a non-empty file name") }
    let resolved = resolvePage(file, from: name)
    if let folder, !folder.holds(resolved) {
        throw fileField.failure(folder.outside(file, kind: kind == "page" ? "page" : "file"))
    }
    let content: PlaylistFile.Content
    switch kind {
    case "page": content = .page(resolved)
    case "picture":
        let scale = try field.optional("scale").map { field throws(JSONFieldError) in try field.oneOf(["fit", "fill"]) }
        content = .picture(resolved, fills: (scale ?? "fill") == "fill")
    default: content = .video(resolved)
    }
    let duration = try parseDuration(try field["duration"], allowsZero: false)
    let transition = try field.optional("transition").map { field throws(JSONFieldError) in
        try parseTransition(field)
    }
    return PlaylistFile.Item(content: content, duration: duration, transition: transition, path: field.path)
}
