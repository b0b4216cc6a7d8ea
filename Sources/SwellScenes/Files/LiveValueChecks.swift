import SwellJSON

/// A text element's `countOf` must name a ripples element of the page by its id.
func checkLiveCounts(_ layers: [SceneFile.Layer], root: JSONField, problems list: inout ProblemList) {
    let ponds = layers.filter { $0.descriptor.name == "ripples" }.compactMap(\.id)
    let allowed =
        ponds.isEmpty
        ? "give a \"ripples\" element an \"id\" and name it here"
        : "allowed: \(ponds.map { "\"\($0)\"" }.joined(separator: ", "))"
    for (index, layer) in layers.enumerated() where layer.descriptor.name == "text" {
        let target = layer.settings.text("countOf")
        guard !target.isEmpty, !ponds.contains(target) else { continue }
        let named = layers.first { $0.id == target }
        let what = named.map { "is a \"\($0.descriptor.name)\", not a \"ripples\"" } ?? "names no element of this page"
        list.problems.append("\(root.path).layers[\(index)].parameters.countOf: \"\(target)\" \(what); \(allowed)")
    }
}

/// A text element shows one string: its `text`, a `file`'s or a `clock`'s. A `file` replaces
/// `text` rather than falling back to it: a kiosk that started on a stale fallback would look
/// right and be wrong, so a missing file is refused at start-up instead (see `loadTextFiles`).
func checkTextSource(_ keys: some Collection<String>, parameters: JSONField, problems list: inout ProblemList) {
    let given = ["text", "clock"].filter(keys.contains)
    if keys.contains("file"), let other = given.first {
        list.problems.append(
            "\(parameters.path).file: a text element shows a file's text or \"\(other)\", not both; remove one")
    }
    if keys.contains("column") && !keys.contains("file") {
        list.problems.append("\(parameters.path).column: picks a column of a \"file\"; give the file, or remove it")
    }
}
