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
