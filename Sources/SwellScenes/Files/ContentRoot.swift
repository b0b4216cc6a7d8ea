import SwellJSON

/// The folder every file a scene reaches must lie in, its symbolic links followed: a text
/// element's `file`, a slideshow's `folder` (and the pictures in it), a video element's `file`,
/// a page action's `target` and a playlist's items. A kiosk's is its kiosk file's
/// `"contentFolder"` (`swell run --content-folder`), else the folder of the scene file it
/// started with; a page cannot show `../../../etc/shadow` however the kiosk runs.
///
/// (Named apart from SwellAPI's `ContentFolder`, the API's reading and writing of the same
/// folder.) This module reads no files: `locate` says where a path lies, its links resolved
/// (SwellSystem's `resolvedLocation`), and is called on the loading and preparing threads.
public struct ContentRoot: Sendable {
    /// The folder, absolute, its links resolved.
    public let path: String
    private let locate: @Sendable (String) -> String?

    /// `path`: absolute and resolved (`canonicalPath`); `locate(file)`: where `file` lies,
    /// resolved (nil: it cannot be told, which counts as outside).
    public init(path: String, locate: @escaping @Sendable (String) -> String?) {
        self.path = path
        self.locate = locate
    }

    /// Whether `file` (as the process names it: absolute, or relative to the working folder)
    /// lies in the folder, or is the folder itself, once its links are followed.
    public func holds(_ file: String) -> Bool {
        guard let location = locate(file) else { return false }
        return location == path || location.hasPrefix(path.hasSuffix("/") ? path : path + "/")
    }

    /// The problem at `jsonPath` when `given` (as the file spells it, found at `file`) lies
    /// outside; nil when it is inside. `kind` names what to name instead: "file", "folder", "page".
    public func problem(at jsonPath: String, given: String, file: String, kind: String = "file") -> String? {
        holds(file) ? nil : "\(jsonPath): \(outside(given, kind: kind))"
    }

    /// "\"../x\" is outside the content folder /data/cafe; name a file inside it, or …".
    public func outside(_ given: String, kind: String = "file") -> String {
        "\"\(given)\" is outside the content folder \(path); name a \(kind) inside it, or give the kiosk file "
            + "a \"contentFolder\" that holds both"
    }

    /// The problems of the files `file`'s elements name (relative to the scene file `name`):
    /// each text element's and video element's `file`, each slideshow's `folder`.
    func problems(in file: SceneFile, name: String, root: JSONValue) -> [String] {
        var found: [String] = []
        for (index, layer) in file.layers.enumerated() {
            var parameters: [(String, String)] = []
            if ["text", VideoScene.descriptor.name].contains(layer.descriptor.name) {
                parameters.append(("file", "file"))
            }
            if layer.descriptor.parameters.contains(where: { $0.name == "folder" }) {
                parameters.append(("folder", "folder"))
            }
            for (parameter, kind) in parameters {
                let given = layer.settings.text(parameter)
                guard !given.isEmpty else { continue }
                let path = parameterPath(parameter, of: index, in: file, root: root)
                if let problem = problem(at: path, given: given, file: resolvePage(given, from: name), kind: kind) {
                    found.append(problem)
                }
            }
        }
        return found
    }
}
