import SwellJSON
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellSystem

/// One output of a kiosk file as `swell dump` draws it at a wall-clock time: what its schedule
/// chooses then (or its own content), dated from the start of the window that chose it, as the
/// running kiosk shows it (`ScheduledContent`). A window that turns the screen off is a black
/// frame. The same file and times give the same bytes on every run: the day-in-the-life golden.
struct KioskDump {
    let plan: KioskPlan
    let index: Int
    /// The content shown, the window's start it is dated from, and its player.
    private var shown: (file: String, since: Double, player: ScenePlayer)?

    /// Output `index` of `plan` (the kiosk file's time zone already applied).
    init(plan: KioskPlan, index: Int) {
        self.plan = plan
        self.index = index
    }

    /// The kiosk file's output named `connector` (nil: its first), or a usage error naming those
    /// it has.
    static func outputIndex(of plan: KioskPlan, connector: String?, file: String) throws -> Int {
        guard let connector else { return 0 }
        if let index = plan.connectors.firstIndex(of: connector) { return index }
        let names = plan.connectors.map { $0 ?? "(the first connected)" }.joined(separator: ", ")
        throw CommandFailure(ExitStatus.usage, "\(file) has no output \(connector); it has \(names)")
    }

    /// Draws the frame at Unix time `wall` (`start`: the dump's first frame's, from which a kiosk
    /// without a schedule is dated) and says what it shows.
    mutating func render(wall: Double, start: Double, into surface: PixelSurface) throws -> String {
        let own = plan.outputContents[index]
        var file = own
        var since = start
        if let schedule = plan.schedule {
            let now = ScheduledContent.look(schedule, plan.scheduleOutput(index), at: wall)
            if now.decision?.content == .off {
                for y in 0..<surface.height { surface.row(y).update(repeating: 0, count: surface.width) }
                return "off"
            }
            file = ScheduledContent.content(of: now.decision, schedule: schedule, ownContent: own)
            since = now.since
        }
        if shown?.file != file || shown?.since != since {
            let player = try loadScenePlayer(file, contentFolder: plan.contentFolder)
            player.use(WallClock(epochAtZero: since, fixedOffset: nil))
            shown = (file, since, player)
        }
        shown?.player.render(at: wall - since, into: surface)
        return file
    }
}

/// Whether `path` is a kiosk file (`"format": "kiosk/1"`), read without checking the rest.
func isKioskFile(_ path: String) -> Bool {
    guard path.hasSuffix(".json"), let bytes = try? readWholeFile(path), let root = try? parseJSON(bytes),
        let format = try? JSONField(root: root).optional("format")?.string()
    else { return false }
    return format == "kiosk/1"
}
