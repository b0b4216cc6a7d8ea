import SwellDisplay
import SwellInput
import SwellLoop
import SwellScenes
import SwellService

/// `swell bench --scenes DIR`: every scene file in DIR (*.json; examples/ holds one of each built-in
/// scene), one after another on the same output, in one table — whether this machine holds the
/// refresh rate with each of them, for someone choosing kiosk hardware.
func benchSceneSuite(_ folder: String, _ arguments: ParsedArguments) throws -> Int32 {
    // A kiosk file (examples/kiosk.json) says what a kiosk runs; it is not a scene.
    let paths = try jsonFiles(in: folder, holding: "scene files").filter { !$0.hasSuffix("/kiosk.json") }
    let threads = try arguments.integer("threads", default: onlineCores(), in: 1...256)
    // Every file is read first, so a broken one stops the run before the display is taken.
    let scenes = try paths.map { path in
        (
            name: String(path.split(separator: "/").last!.dropLast(5)),
            player: try loadScenePlayer(path, threads: threads)
        )
    }
    let bench = try SceneBench(arguments, threads: threads, defaultSeconds: 10)
    defer { bench.close() }
    var results: [BenchSeries] = []
    for scene in scenes {
        results.append(try bench.run(scene.player, name: scene.name))
        if StopSignals.received != nil { break }
    }
    print(
        "swell bench: \(results.count) scene files in \(folder) on \(bench.location), \(bench.frames) frames each at "
            + "\(formatHertz(bench.refresh)) (stepped clock), \(bench.describedInput)")
    if bench.presenting { print("presenting: \(bench.presenter.pacing)") }
    try report(
        results, budget: bench.budget, arguments: arguments, title: "swell bench --scenes \(folder) (\(bench.location))"
    )
    print(suiteVerdict(results, budget: bench.budget, refresh: bench.refresh))
    return try checkChecksums(results, arguments: arguments)
}

/// One line: the scenes whose every frame fit the budget, and those with frames over it.
func suiteVerdict(_ results: [BenchSeries], budget: Double, refresh: Double) -> String {
    let over = results.map { ($0.name, FrameStatistics($0.times.total, budget: budget).overBudget) }
    let holding = over.filter { $0.1 == 0 }.map(\.0)
    let missing = over.filter { $0.1 > 0 }.map { "\($0.0) (\($0.1) frame\($0.1 == 1 ? "" : "s"))" }
    let rate = formatHertz(refresh)
    if missing.isEmpty { return "every scene held \(rate): no frame over the \(formatMilliseconds(budget)) ms budget" }
    return "held \(rate): " + (holding.isEmpty ? "none" : holding.joined(separator: ", "))
        + "; frames over the \(formatMilliseconds(budget)) ms budget: " + missing.joined(separator: ", ")
}
