import SwellJSON
import SwellRaster

/// Timed touches for dumps and tests, so interactive scenes render deterministically.
///
/// Format `touches/1` (JSON):
///
///     {"format": "touches/1",
///      "events": [
///        {"time": 0.5, "type": "down", "finger": 0, "x": 100, "y": 80},
///        {"time": 0.6, "type": "move", "finger": 0, "x": 110, "y": 82},
///        {"time": 0.7, "type": "up",   "finger": 0}
///      ]}
///
/// - `time`: seconds from the start of the scene (frame n of a dump is at n / fps); events
///   must be in non-decreasing time order. An event at exactly a frame's time is applied
///   before that frame is drawn.
/// - `type`: "down" (finger touches), "move", "up" (finger lifts).
/// - `finger`: a whole number 0...1000 (default 0) telling fingers apart; a finger must be
///   down before it moves or lifts, and up before it touches again.
/// - `x`, `y`: pixels from the top-left corner; required for down and move; an up without
///   them lifts where the finger last was.
public struct TouchScript: Equatable, Sendable {
    public var events: [TouchEvent]

    public init(events: [TouchEvent]) { self.events = events }
}

/// Parses and validates a touch script, reporting every problem with its JSON path.
public func parseTouchScript(bytes: [UInt8], name: String) throws(SceneFileError) -> TouchScript {
    let root = try parseDocument(bytes, name: name)
    var list = ProblemList()
    let document = JSONField(root: root)
    var events: [TouchEvent] = []
    if let object = list.check({ () throws(JSONFieldError) in try document.object() }) {
        for key in object.keys where key != "format" && key != "events" {
            list.problems.append("$\(JSONField.pathComponentForKey(key)): unknown member; allowed here: format, events")
        }
        if let format = list.check({ () throws(JSONFieldError) in try document.optional("format") }) ?? nil {
            _ = list.check { () throws(JSONFieldError) in try format.oneOf(["touches/1"]) }
        }
        var down: [Int: (x: Double, y: Double)] = [:]
        var lastTime = 0.0
        for field in list.check({ () throws(JSONFieldError) in try document["events"].array() }) ?? [] {
            guard let members = list.check({ () throws(JSONFieldError) in try field.object() }) else { continue }
            for key in members.keys where !["time", "type", "finger", "x", "y"].contains(key) {
                list.problems.append(
                    "\(field.path)\(JSONField.pathComponentForKey(key)): unknown member; allowed here: time, type, finger, x, y"
                )
            }
            let time = list.check { () throws(JSONFieldError) in try field["time"].number(in: 0...1e9) }
            let type = list.check { () throws(JSONFieldError) in try field["type"].oneOf(["down", "move", "up"]) }
            let finger =
                list.check { () throws(JSONFieldError) in try field.optional("finger")?.integer(in: 0...1000) ?? 0 }
            let needsPosition = type != "up"
            func coordinate(_ key: String) -> Double? {
                list.check { () throws(JSONFieldError) -> Double? in
                    guard let member = try field.optional(key) else {
                        if needsPosition {
                            throw field.failure(
                                "missing required member \"\(key)\" (a \(type ?? "touch") needs a position)")
                        }
                        return nil
                    }
                    return try member.number(in: -1e6...1e6)
                } ?? nil
            }
            let x = coordinate("x")
            let y = coordinate("y")
            guard let time, let type, let finger else { continue }
            if time < lastTime {
                list.problems.append(
                    "\(field.path).time: events must be in time order; got \(format(time)) after \(format(lastTime))")
            }
            lastTime = max(lastTime, time)
            switch type {
            case "down":
                if down[finger] != nil {
                    list.problems.append("\(field.path).type: finger \(finger) is already down (send \"up\" first)")
                }
                guard let x, let y else { continue }
                down[finger] = (x, y)
                events.append(TouchEvent(.began, finger: finger, x: x, y: y, time: time))
            case "move":
                if down[finger] == nil {
                    list.problems.append("\(field.path).type: finger \(finger) moves but is not down")
                }
                guard let x, let y else { continue }
                down[finger] = (x, y)
                events.append(TouchEvent(.moved, finger: finger, x: x, y: y, time: time))
            default:
                guard let last = down[finger] else {
                    list.problems.append("\(field.path).type: finger \(finger) lifts but is not down")
                    continue
                }
                down[finger] = nil
                events.append(TouchEvent(.ended, finger: finger, x: x ?? last.x, y: y ?? last.y, time: time))
            }
        }
    }
    guard list.problems.isEmpty else { throw SceneFileError(file: name, problems: list.problems) }
    return TouchScript(events: events)
}

/// Feeds a script's events to a player as frames advance: before the frame at time t, every
/// event with time ≤ t is delivered (at its own time), so a frame never depends on which
/// earlier frames were drawn.
public struct ScriptedPlayback {
    public let player: ScenePlayer
    public let events: [TouchEvent]
    private var next = 0

    public init(player: ScenePlayer, script: TouchScript) {
        self.player = player
        self.events = script.events
    }

    /// Every event of the script has been delivered.
    public var isFinished: Bool { next >= events.count }

    /// Delivers due events, then draws the frame at `time` (times must not decrease); returns its
    /// damage (`ScenePlayer.render(at:into:)`).
    @discardableResult
    public mutating func render(at time: Double, into surface: PixelSurface) -> Damage {
        player.screen = player.screenSize(for: surface)
        deliver(upTo: time)
        return player.render(at: time, into: surface)
    }

    /// Delivers every event due by `time` (times must not decrease), for callers that draw the
    /// frame themselves (a benchmark times the drawing alone).
    public mutating func deliver(upTo time: Double) {
        while next < events.count && events[next].time <= time {
            player.handle(events[next])
            next += 1
        }
    }
}
