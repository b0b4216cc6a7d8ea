/// What the API asks of the running kiosk: the one interface between the server's threads and
/// the kiosk (after kmscon's `display_ops`). Every method is called on a request's own thread;
/// the kiosk answers from what it has already (a copy of the presented frame, the figures of its
/// last frames) or hands the work to its loop, and never makes the loop wait for a request.
public protocol KioskControl: AnyObject, Sendable {
    /// The outputs and what each shows.
    func outputs() -> [OutputStatus]
    /// The picture output `connector` shows now, as PNG (nil: no such output).
    func screenshotPNG(of connector: String) -> [UInt8]?
    /// Shows `content` (a file of the content folder, resolved) on `output` (nil: the only one),
    /// for `seconds` (nil: until the schedule's next change); the problem says why not.
    func show(content: String, on output: String?, forSeconds seconds: Double?) -> Problem?
    /// Turns the screens of `output` (nil: every one) on or off; each output's power after (an
    /// output that cannot be turned off stays on).
    func setScreens(on: Bool, output: String?) -> Result<[(connector: String, on: Bool)], Problem>
    /// Why the file at `temporary`, uploaded for `final`, cannot be used (nil: it can): a page
    /// is loaded as `swell run` loads it.
    func check(upload temporary: String, for final: String) -> String?
}

/// One output as the status reports it.
public struct OutputStatus: Sendable {
    public var connector: String
    public var mode: String
    public var rotation: Int
    /// The file (relative to the content folder where it is inside it) or built-in scene shown.
    public var shows: String
    /// The schedule's rule in force (nil: none).
    public var rule: String?
    /// Shown through the API until this Unix time (nil with `overridden`: until the next change).
    public var overridden: Bool
    public var overrideUntil: Double?
    public var frames: Int
    /// Milliseconds to draw and present a frame over the last minute (nil: no frame in it): how
    /// many frames, p50, p99, the longest, and how many took longer than a refresh.
    public var frameTimes: (count: Int, p50: Double, p99: Double, max: Double, overBudget: Int)?
    public var powerOn: Bool

    public init(
        connector: String, mode: String, rotation: Int, shows: String, rule: String?, overridden: Bool,
        overrideUntil: Double?, frames: Int,
        frameTimes: (count: Int, p50: Double, p99: Double, max: Double, overBudget: Int)?, powerOn: Bool
    ) {
        self.connector = connector
        self.mode = mode
        self.rotation = rotation
        self.shows = shows
        self.rule = rule
        self.overridden = overridden
        self.overrideUntil = overrideUntil
        self.frames = frames
        self.frameTimes = frameTimes
        self.powerOn = powerOn
    }

    var json: JSONOut {
        JSONOut.object([
            ("connector", .string(connector)), ("mode", .string(mode)), ("rotation", .int(rotation)),
            ("shows", .string(shows)), ("rule", .string(rule)),
            (
                "override",
                overridden ? .object([("content", .string(shows)), ("until", .number(overrideUntil))]) : .null
            ),
            ("frames", .int(frames)),
            (
                "frameTime",
                frameTimes.map { times in
                    .object([
                        ("frames", .int(times.count)), ("p50", .number(times.p50)), ("p99", .number(times.p99)),
                        ("max", .number(times.max)), ("overBudget", .int(times.overBudget)),
                    ])
                } ?? .null
            ),
            ("power", .string(powerOn ? "on" : "off")),
        ])
    }
}
