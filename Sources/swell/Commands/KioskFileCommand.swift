import SwellDisplay
import SwellInput
import SwellLoop
import SwellPlayer
import SwellScenes
import SwellService
import SwellSystem

/// Reads and checks a kiosk file: exit 66 when it cannot be read, 65 with every problem, one line
/// each naming its JSON path. The schedule file it names is read into `plan.schedule`, its rules'
/// outputs checked against the kiosk's; a schedule's content file that does not exist is a problem
/// (unless `checkingContents` is false: `swell schedule` asks about times, not files).
func loadKioskPlan(_ path: String, checkingContents: Bool = true) throws -> KioskPlan {
    let exists: ((String) -> Bool)? = checkingContents ? { fileExists($0) } : nil
    var plan = try loadInputFile(path) { bytes throws(KioskFileError) in
        try parseKioskFile(bytes: bytes, name: path, contentExists: exists)
    }
    if let file = plan.scheduleFile {
        plan.schedule = try loadScheduleFile(file, outputs: scheduleOutputs(plan), checkingContents: checkingContents)
    }
    if checkingContents, let folder = plan.contentFolder { try checkContentFolder(folder, of: plan, file: path) }
    return plan
}

/// A kiosk file's "contentFolder" must be a folder that holds every output's scene file (exit 66
/// for a folder that is not there, 65 naming each scene outside it).
func checkContentFolder(_ folder: String, of plan: KioskPlan, file: String) throws {
    guard let path = canonicalPath(folder), isDirectory(atPath: path) else {
        throw CommandFailure(ExitStatus.noInput, "\(file): $.contentFolder: \"\(folder)\": no such folder")
    }
    let content = ContentRoot(path: path, locate: { resolvedLocation($0) })
    var paths: [String]
    switch plan.layout {
    case .outputs(let outputs): paths = outputs.indices.map { "$.outputs[\($0)].content" }
    case .span: paths = ["$.span.content"]
    }
    let problems = zip(paths, plan.outputContents).compactMap { path, scene in
        builtInScene(named: scene) != nil
            ? nil : content.problem(at: path, given: scene, file: scene, kind: "scene file")
    }
    guard problems.isEmpty else {
        throw CommandFailure(ExitStatus.dataError, KioskFileError(file: file, problems: problems).description)
    }
}

/// Sets the process's time zone to the kiosk's (its schedule's "timeZone"), in which its
/// schedule and night hours are said and its text clocks read: before any thread starts, since
/// setenv is not safe beside threads that read the zone. Exit 65 for a zone that went missing.
func useScheduleTimeZone(_ plan: KioskPlan, file: String) throws {
    guard let name = plan.schedule?.timeZone else { return }
    do {
        try useTimeZone(name)
    } catch {
        throw CommandFailure(ExitStatus.dataError, "\(file): \(error)")
    }
}

/// Reads and checks a `schedule/1` file (exit 66, 65 as `loadKioskPlan`); `outputs`: the kiosk's
/// connectors its rules may name (nil: not checked).
func loadScheduleFile(_ path: String, outputs: [String]?, checkingContents: Bool = true) throws -> Schedule {
    let exists: ((String) -> Bool)? = checkingContents ? { fileExists($0) } : nil
    return try loadInputFile(path) { bytes throws(KioskFileError) in
        try parseScheduleFile(bytes: bytes, name: path, outputs: outputs, contentExists: exists)
    }
}

/// The connectors a plan's schedule rules may name: none for a span (one content on all).
func scheduleOutputs(_ plan: KioskPlan) -> [String] {
    if case .span = plan.layout { return [] }
    return plan.connectors.compactMap { $0 }
}

/// `swell run --kiosk FILE --check`: the file, every scene it shows and its touch script are
/// loaded as a run would load them, without opening a device. The connectors are checked against
/// the DRM cards the kernel lists in /sys/class/drm (exit 64 for one it lacks, naming the card's);
/// a machine with no card checks their spelling only, and says so.
func checkKioskPlan(_ plan: KioskPlan, file: String) throws -> Int32 {
    for content in plan.outputContents { _ = try loadScenePlayer(content, contentFolder: plan.contentFolder) }
    // What the schedule shows, loaded as the outputs' contents are.
    if let schedule = plan.schedule {
        var loaded: Set<String> = []
        for content in schedule.rules.map(\.content) + [schedule.defaultContent].compactMap({ $0 }) {
            guard case .file(let name) = content, loaded.insert(name).inserted else { continue }
            _ = try loadScenePlayer(name, contentFolder: plan.contentFolder)
        }
    }
    if let script = plan.script { _ = try loadTouchScript(script) }
    let api = try plan.api.map(checkManagement)
    let names = plan.connectors.compactMap { $0 }
    var note = api.map { "; " + $0 } ?? ""
    if !names.isEmpty {
        let cards = listedCards(device: plan.device)
        if cards.isEmpty {
            note = "; no DRM card here, so the connector names were not checked against one"
        } else if !cards.contains(where: { unknownConnectors(names, among: $0.connectors).isEmpty }) {
            let lines = cards.flatMap { card in
                unknownConnectors(names, among: card.connectors).map { name in
                    "\(file): \(card.name) has no connector named \(name); it has \(connectorList(card.connectors))"
                }
            }
            throw CommandFailure(ExitStatus.usage, lines.joined(separator: "\n"))
        }
    }
    printNow("swell: \(file) is a valid kiosk file: " + planSummary(plan) + note)
    return ExitStatus.success
}

/// "HDMI-A-1 shows menu.json, HDMI-A-2 shows promo.json" and the like.
func planSummary(_ plan: KioskPlan) -> String {
    var parts: [String]
    switch plan.layout {
    case .outputs(let outputs):
        parts = outputs.map { "\($0.connector ?? "the first connected display") shows \($0.content)" }
    case .span(let span):
        parts = [span.outputs.map(\.connectorName).joined(separator: " + ") + " show \(span.content) as one canvas"]
    }
    if let hours = plan.offHours { parts.append("off \(hours) local time") }
    if let idle = plan.screenOffAfter { parts.append("off after \(formatSeconds(idle)) s without a touch") }
    if let schedule = plan.schedule {
        let count = schedule.rules.count
        parts.append(
            "a schedule of \(count) rule\(count == 1 ? "" : "s")" + (plan.scheduleFile.map { " (\($0))" } ?? "")
                + (schedule.timeZone.map { " in \($0)" } ?? ""))
    }
    return parts.joined(separator: ", ")
}

private func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
}

/// A DRM card as sysfs lists it: its connectors and their status, read without opening it.
struct ListedCard {
    let name: String
    let connectors: [(name: String, status: String)]
}

/// The cards in /sys/class/drm ("card0-HDMI-A-1" is card0's HDMI-A-1), or the one `device` names.
func listedCards(device: String?, root: String = "/sys/class/drm") -> [ListedCard] {
    guard let entries = sortedNames(in: root, where: { _ in true }) else { return [] }
    let cardNames = entries.filter { $0.hasPrefix("card") && !$0.contains("-") }
    let wanted = device.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
    return cardNames.filter { wanted == nil || $0 == wanted }.map { card in
        let connectors = entries.filter { $0.hasPrefix(card + "-") }.map { entry in
            (String(entry.dropFirst(card.count + 1)), connectorStatus("\(root)/\(entry)/status"))
        }
        return ListedCard(name: card, connectors: connectors)
    }
}

/// The first line of a connector's sysfs `status` file ("connected"), or "unknown".
private func connectorStatus(_ path: String) -> String {
    guard let bytes = try? readWholeFile(path) else { return "unknown" }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.split(separator: "\n").first.map(String.init) ?? "unknown"
}

/// Takes up a changed kiosk file while running: what each output shows changes at once; a change
/// of anything else (outputs, touch, clock, power) is reported and waits for a restart, and a
/// file that no longer checks out is reported and ignored.
final class KioskFileFollower {
    let path: String
    /// The plan running, with the contents taken up since.
    private var plan: KioskPlan
    /// Each output's content, in the plan's order (set once they exist).
    var contents: [SceneContent] = []
    /// Each output's schedule (empty: the kiosk has none).
    var scheduled: [ScheduledContent] = []

    init(path: String, plan: KioskPlan) {
        self.path = path
        self.plan = plan
    }

    func fileChanged(at time: Double) {
        let new: KioskPlan
        do {
            new = try loadKioskPlan(path)
        } catch {
            kioskWarn(
                "\(path) changed but does not check out (running as before): \(CommandFailure.message(of: error))")
            return
        }
        var differences = new.differences(from: plan)
        // A schedule added or taken away changes what drives the outputs, and a new time zone
        // cannot be set beside running threads (setenv): both wait for a restart.
        if (new.schedule == nil) != scheduled.isEmpty || new.schedule?.timeZone != plan.schedule?.timeZone {
            differences.append("schedule")
        }
        if !differences.isEmpty {
            kioskWarn(
                "\(path) changed: " + differences.map { "\"\($0)\"" }.joined(separator: ", ")
                    + " cannot change while running; restart Swell to apply (systemctl restart swell-kiosk)")
        }
        // A content changes live when the outputs are the same ones.
        guard !differences.contains(where: { $0 == "outputs" || $0 == "span" || $0 == "schedule" }) else { return }
        if !scheduled.isEmpty, let schedule = new.schedule {
            // The schedule chooses what shows: the new one (and new own contents) from the next round.
            for (index, content) in scheduled.enumerated() {
                content.use(schedule, ownContent: new.outputContents[index])
            }
            if new.scheduleDiffers(from: plan) { kioskWarn("\(path) changed: the new schedule applies now") }
            plan = new
            return
        }
        for (index, name) in new.outputContents.enumerated() where name != plan.outputContents[index] {
            do {
                try contents[index].show(name, at: time)
                kioskWarn("\(path) changed: \(describe(index)) now shows \(name)")
            } catch {
                kioskWarn(
                    "\(path) changed but \(name) was not loaded (\(describe(index)) goes on with "
                        + "\(plan.outputContents[index])): \(CommandFailure.message(of: error))")
                continue
            }
            plan.setContent(name, ofOutput: index)
        }
    }

    private func describe(_ index: Int) -> String {
        switch plan.layout {
        case .outputs(let outputs): outputs[index].connector ?? "the display"
        case .span: "the span"
        }
    }
}
