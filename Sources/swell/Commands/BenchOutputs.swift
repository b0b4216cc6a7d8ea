import SwellDisplay
import SwellInput
import SwellLoop
import SwellOutput
import SwellRaster
import SwellScenes
import SwellService
import SwellSystem

/// `swell bench --display NAME=SCENE --display NAME=SCENE`: several outputs of one kiosk, each
/// its own scene (or the same), rendered and presented in turn on every step of the stepped
/// clock, as one loop drives them. Each output is a memory presenter at --size (two scan-out
/// buffers, as a page flip has: the copy of each frame's damage is timed as `present`).
///
/// What holds the refresh rate is the round: every output's frame within one refresh, so the
/// table's `both` row (the outputs' times added per step) is judged against the budget too. A
/// reference series, one output alone with the first output's scene, is measured in the same
/// run, interleaved step by step (so the machine's load falls on both alike), and the ratio of
/// the round's p50 to it says what the second output costs.
func benchOutputs(_ texts: [String], _ arguments: ParsedArguments) throws -> Int32 {
    let outputs = try benchOutputList(texts, arguments)
    let threads = try arguments.integer("threads", default: onlineCores(), in: 1...256)
    let size = try arguments.size("size") ?? (1920, 1080)
    let refresh = Double(try arguments.integer("refresh", default: 60, in: 1...1000))
    let seconds = try secondsOption(arguments) ?? 20
    let frames = try arguments.integer(
        "frames", default: max(1, Int((seconds * refresh).rounded())), in: 1...10_000_000)
    let script =
        try arguments["input"].map(loadTouchScript)?.events
        ?? draggingFingers(width: size.0, height: size.1, seconds: Double(frames) / refresh)
    // The reference (one output alone) is the first output's scene on a presenter of its own.
    var runs = try (outputs + [(name: "reference", scene: outputs[0].scene)]).map { output in
        BenchOutputRun(
            name: output.name, scene: output.scene, player: try loadScenePlayer(output.scene, threads: threads),
            presenter: MemoryPresenter(panelWidth: size.0, panelHeight: size.1, buffers: 2), frames: frames,
            script: script)
    }
    var progress = ProgressBar(total: frames, label: "\(outputs.count) outputs")
    for index in runs.indices { try runs[index].startup() }
    for frame in 0..<frames {
        if StopSignals.received != nil { break }
        let time = Double(frame) / refresh
        for index in runs.indices { try runs[index].step(at: time) }
        progress.update(frame + 1)
    }
    progress.finish()
    let budget = 1000 / refresh
    let shown = runs.dropLast()
    var both = FrameTimes()
    both.render = shown.dropFirst().reduce(shown.first!.times.render) { zip($0, $1.times.render).map(+) }
    both.present = shown.dropFirst().reduce(shown.first!.times.present) { zip($0, $1.times.present).map(+) }
    let series =
        runs.map { $0.series(size: size) }
        + [BenchSeries(name: "both (one round)", width: size.0, height: size.1, times: both, checksum: nil)]
    print(
        "swell bench: \(outputs.count) memory outputs at \(size.0)x\(size.1) ("
            + outputs.map { "\($0.name)=\($0.scene)" }.joined(separator: ", ")
            + "), \(frames) frames at \(formatHertz(refresh)) (stepped clock), \(threads) thread\(threads == 1 ? "" : "s"), "
            + (arguments["input"] == nil ? "three dragging fingers on each" : "touch script \(arguments["input"]!)")
            + "; presented in turn, each into two scan-out buffers")
    try report(series, budget: budget, arguments: arguments, title: "swell bench, \(outputs.count) outputs")
    let round = FrameStatistics(both.total, budget: budget)
    let alone = FrameStatistics(runs.last!.times.total, budget: budget)
    print(
        "the round of \(outputs.count) outputs against one output alone (interleaved in this run): p50 "
            + "\(formatRatio(round.p50 / alone.p50)), p99 \(formatRatio(round.p99 / alone.p99)); "
            + (round.overBudget == 0
                ? "every round fit in one refresh (\(formatMilliseconds(budget)) ms)"
                : "\(round.overBudget) rounds of \(round.count) over one refresh (\(formatMilliseconds(budget)) ms)"))
    return try checkChecksums(series, arguments: arguments)
}

/// The `--display NAME=SCENE` values of `bench` (names are free: the outputs are in memory).
private func benchOutputList(_ texts: [String], _ arguments: ParsedArguments) throws -> [(name: String, scene: String)]
{
    guard arguments.positional.isEmpty else {
        throw CommandFailure(ExitStatus.usage, "with --display each output names its scene; give no SCENE as well")
    }
    guard arguments["output"] == nil || arguments["output"] == "memory" else {
        throw CommandFailure(
            ExitStatus.usage,
            "bench --display runs memory outputs; the displays of a kiosk are measured by 'swell run --display …'")
    }
    for option in ["canvas", "viewport", "damage", "clock-step", "hold", "whole-frames"]
    where arguments[option] != nil || arguments.has(option) {
        throw CommandFailure(ExitStatus.usage, "bench --display does not take --\(option)")
    }
    let assignments = try DisplayAssignment.parseAll(texts)
    guard assignments.count >= 2 else {
        throw CommandFailure(
            ExitStatus.usage, "bench --display wants two or more outputs (one alone is 'swell bench SCENE')")
    }
    return assignments.map { ($0.connectorName, $0.file) }
}

/// One output of `benchOutputs`: its player, presenter and times.
private struct BenchOutputRun {
    let name: String
    let scene: String
    let player: ScenePlayer
    let presenter: MemoryPresenter
    var times = FrameTimes()
    /// The script's touches, delivered as the frames advance.
    var playback: ScriptedPlayback

    init(
        name: String, scene: String, player: ScenePlayer, presenter: MemoryPresenter, frames: Int,
        script: [SwellScenes.TouchEvent]
    ) {
        playback = ScriptedPlayback(player: player, script: TouchScript(events: script))
        self.name = name
        self.scene = scene
        self.player = player
        self.presenter = presenter
        times.reserve(frames)
        player.screen = player.screenSize(for: presenter.shadow.surface)
    }

    mutating func startup() throws {
        times.startup = try startupFrame(player, on: presenter, presenting: true, clockStep: nil)
    }

    mutating func step(at time: Double) throws {
        playback.deliver(upTo: time)
        let started = monotonicSeconds()
        let drawn = player.render(at: time, into: presenter.shadow.surface)
        let rendered = monotonicSeconds()
        do { try presenter.present(damage: drawn) } catch { throw commandFailure(error) }
        times.render.append((rendered - started) * 1000)
        times.copy.append(presenter.lastCopySeconds * 1000)
        times.present.append((monotonicSeconds() - rendered) * 1000)
    }

    func series(size: (Int, Int)) -> BenchSeries {
        BenchSeries(
            name: name == "reference" ? "reference: \(scene) alone" : "\(name)=\(scene)", width: size.0,
            height: size.1, times: times,
            // The reference's name has spaces, which a checksum file's "name checksum" lines cannot hold.
            checksum: name == "reference" ? nil : checksum(presenter.shadow.surface))
    }
}
