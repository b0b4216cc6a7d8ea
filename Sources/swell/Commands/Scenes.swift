import SwellScenes

let scenesVerb = Verb(
    name: "scenes",
    summary: "list the built-in scenes with their parameters and defaults",
    synopsis: "[NAME]",
    details: """
        Prints every built-in scene (or only NAME) with its parameters: name, default and what is
        allowed. A scene file (see examples/) names a scene and sets any of these parameters:
          {"format": "scene/1", "scene": "ripples", "parameters": {"metrics": true}}
        or stacks several scenes bottom to top:
          {"format": "scene/1", "background": "#FFFFFF",
           "layers": [{"scene": "flow"}, {"scene": "ripples", "parameters": {"opacity": 0.8}}]}
        Colours are "#RRGGBB" or "#RRGGBBAA" (or [r, g, b, a] in 0...1).
        """,
    options: [],
    run: runScenes)

private func runScenes(_ arguments: ParsedArguments) throws -> Int32 {
    var selected = builtInScenes
    if let name = arguments.positional.first {
        guard arguments.positional.count == 1, let scene = builtInScene(named: name) else {
            throw CommandFailure(
                ExitStatus.usage,
                "no built-in scene '\(name)'; the scenes are: \(builtInScenes.map(\.name).joined(separator: ", "))")
        }
        selected = [scene]
    }
    var text = ""
    for scene in selected {
        text += "\(scene.name) — \(scene.summary)\n"
        for parameter in scene.parameters {
            text += "    " + parameter.name.padding(to: 14) + parameter.defaultDescription.padding(to: 12)
            text += parameter.help + " (" + parameter.allowed + ")\n"
        }
        text += "\n"
    }
    print(text, terminator: "")
    return ExitStatus.success
}
