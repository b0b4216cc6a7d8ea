import SwellJSON
import SwellService
import SwellSystem

/// The management API and its page: routes (`APIRoute`), bearer tokens (`TokenVerifier`, with
/// wrong ones counted per address by `FailedLogins`), the content folder (`ContentFolder`) and
/// the kiosk (`KioskControl`). Serves on the connection's thread; nothing here waits on a frame.
public final class ManagementAPI: HTTPService, @unchecked Sendable {
    public let control: any KioskControl
    public let tokens: TokenVerifier
    public let content: ContentFolder
    public let logins: FailedLogins
    /// The version and CPU flavour `swell --version` names.
    public let version: String
    public let cpu: String
    private let started = monotonicSeconds()
    private let journal: @Sendable (String) -> Void
    /// The largest JSON body.
    static let jsonLimit = 64 << 10

    public init(
        control: any KioskControl, tokens: TokenVerifier, content: ContentFolder, version: String, cpu: String,
        logins: FailedLogins = FailedLogins(), journal: @escaping @Sendable (String) -> Void = { kioskWarn($0) }
    ) {
        self.control = control
        self.tokens = tokens
        self.content = content
        self.version = version
        self.cpu = cpu
        self.logins = logins
        self.journal = journal
    }

    public func begin(_ request: HTTPRequestHead) -> HTTPBegin {
        do {
            // Under /api/ the token comes first: without one, not even a route's errors answer.
            if request.path.hasPrefix("/api/") { try authenticate(request) }
            let route = try APIRoute.find(method: request.method, path: request.path)
            if case .page(let path) = route, let file = WebPageFiles.files[path] {
                return .respond(HTTPResponse(status: 200, contentType: file.contentType, body: Array(file.body.utf8)))
            }
            return try serve(route, request)
        } catch {
            return .respond(error.response)
        }
    }

    /// A right token, or 401 (429 while the address is blocked).
    private func authenticate(_ request: HTTPRequestHead) throws(Problem) {
        if let wait = logins.blocked(request.client) {
            var problem = Problem(
                status: 429, title: "Too Many Requests",
                detail: "too many wrong tokens from \(request.client); try again in \(Int(wait.rounded(.up))) s")
            problem.headers = [HTTPResponse.Header("Retry-After", String(Int(wait.rounded(.up))))]
            throw problem
        }
        let header = request.header("Authorization") ?? ""
        guard header.hasPrefix("Bearer ") else {
            throw unauthorized("give a token: Authorization: Bearer TOKEN (make one with swell token add NAME)")
        }
        let token = String(header.dropFirst("Bearer ".count))
        guard tokens.verify(token) != nil else {
            let (count, blocked) = logins.failed(request.client)
            if let blocked {
                journal(
                    "api: wrong token from \(request.client); blocked for \(Int(blocked)) s after \(count) wrong tokens"
                )
            } else {
                journal("api: wrong token from \(request.client) (\(count) in the last minute)")
            }
            throw unauthorized("the token is not one of this kiosk's (revoked, or mistyped)")
        }
        logins.succeeded(request.client)
    }

    private func unauthorized(_ detail: String) -> Problem {
        var problem = Problem(status: 401, title: "Unauthorized", detail: detail)
        problem.headers = [HTTPResponse.Header("WWW-Authenticate", "Bearer realm=\"swell\"")]
        return problem
    }

    private func serve(_ route: APIRoute, _ request: HTTPRequestHead) throws(Problem) -> HTTPBegin {
        switch route {
        case .page:
            throw Problem.notFound("no page at \(quoted(request.path))")
        case .status:
            return .respond(.json(statusJSON().text))
        case .screenshot(let output):
            guard let png = control.screenshotPNG(of: output) else {
                throw Problem.notFound(
                    "this kiosk has no output \(quoted(output)); GET /api/v1/status lists them", field: "output")
            }
            return .respond(HTTPResponse(status: 200, contentType: "image/png", body: png))
        case .show:
            return .read(
                MemoryBodySink { [self] body in answer { () throws(Problem) in try show(body) } }, limit: Self.jsonLimit
            )
        case .display(let on):
            return .read(
                MemoryBodySink { [self] body in answer { () throws(Problem) in try display(on: on, body) } },
                limit: Self.jsonLimit)
        case .contentList:
            return .respond(.json(contentListJSON().text))
        case .content(let path, let method):
            switch method {
            case "GET":
                let file = try content.existing(path)
                guard !isDirectory(atPath: file) else {
                    throw Problem(
                        status: 409, title: "Conflict", detail: "\(quoted(path.description)) is a folder", field: "path"
                    )
                }
                guard let bytes = try? readWholeFile(file, limit: content.uploadLimit) else {
                    throw Problem(
                        status: 500, title: "Internal Server Error", detail: "cannot read \(quoted(path.description))")
                }
                return .respond(HTTPResponse(status: 200, contentType: contentType(path), body: bytes))
            case "DELETE":
                try content.delete(path)
                journal("api: \(request.client) deleted \(path)")
                return .respond(.noContent)
            default:
                let client = request.client
                let sink = try content.upload(path) { [self] temporary, final in
                    if let why = control.check(upload: temporary, for: final) {
                        return Problem.unprocessable(
                            why.replacingTemporary(temporary, with: path.description), field: "body")
                    }
                    journal("api: \(client) uploaded \(path)")
                    return nil
                }
                return .read(sink, limit: content.uploadLimit)
            }
        }
    }

    private func answer(_ body: () throws(Problem) -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch {
            return error.response
        }
    }

    private func show(_ body: [UInt8]) throws(Problem) -> HTTPResponse {
        let request = try ShowRequest(json: body)
        let file = try content.existing(request.content)
        if let problem = control.show(content: file, on: request.output, forSeconds: request.seconds) { throw problem }
        journal(
            "api: shows \(request.content)" + (request.output.map { " on \($0)" } ?? "")
                + (request.seconds.map { " for \(Int($0)) s" } ?? ""))
        let shown = control.outputs().first { request.output == nil || $0.connector == request.output }
        return .json(
            JSONOut.object([("output", .string(shown?.connector)), ("shows", .string(request.content.description))])
                .text)
    }

    private func display(on: Bool, _ body: [UInt8]) throws(Problem) -> HTTPResponse {
        let output = try displayOutput(json: body)
        let powers = try control.setScreens(on: on, output: output).get()
        let outputs = powers.map {
            JSONOut.object([("connector", .string($0.connector)), ("power", .string($0.on ? "on" : "off"))])
        }
        let refused = powers.filter { $0.on != on }.map(\.connector)
        guard refused.isEmpty else {
            throw Problem(
                status: 409, title: "Conflict",
                detail:
                    "the screen of \(refused.joined(separator: ", ")) cannot be turned \(on ? "on" : "off") (its driver has no power control)",
                field: "output")
        }
        return .json(JSONOut.object([("outputs", .array(outputs))]).text)
    }

    /// The status document (`GET /api/v1/status`).
    public func statusJSON() -> JSONOut {
        let space = fileSystemSpace(content.root)
        return JSONOut.object([
            ("version", .string(version)), ("cpu", .string(cpu)),
            ("uptime", .number(monotonicSeconds() - started)),
            ("contentFolder", .string(content.root)),
            ("disk", space.map { .object([("free", .int(Int($0.free))), ("total", .int(Int($0.total)))]) } ?? .null),
            ("temperature", .number(cpuTemperature())),
            ("outputs", .array(control.outputs().map(\.json))),
        ])
    }

    func contentListJSON() -> JSONOut {
        let files = content.list().map { file in
            JSONOut.object([
                ("path", .string(file.path)), ("size", .int(Int(file.size))), ("modified", .number(file.modified)),
            ])
        }
        return JSONOut.object([("folder", .string(content.root)), ("files", .array(files))])
    }

    private func contentType(_ path: ContentPath) -> String {
        switch path.fileExtension {
        case "json": "application/json"
        case "txt", "csv": "text/plain; charset=utf-8"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "mp4": "video/mp4"
        case "webm": "video/webm"
        default: "application/octet-stream"
        }
    }
}

/// The CPU's temperature in °C: the thermal zone named for the CPU (x86_pkg_temp, cpu-thermal,
/// soc_thermal), else the first zone; nil where /sys/class/thermal has none.
public func cpuTemperature(root: String = "/sys/class/thermal") -> Double? {
    guard let zones = try? directoryNames(root) else { return nil }
    var first: Double?
    for zone in zones.filter({ $0.hasPrefix("thermal_zone") }).sorted(by: naturalOrder) {
        guard let text = firstLine(ofFile: root + "/" + zone + "/temp"), let milli = Double(text) else { continue }
        let kind = firstLine(ofFile: root + "/" + zone + "/type") ?? ""
        if kind.contains("cpu") || kind.contains("x86_pkg") || kind.contains("soc") { return milli / 1000 }
        first = first ?? milli / 1000
    }
    return first
}

extension String {
    /// A loader's message about the upload's temporary file, told with the name it was sent as.
    func replacingTemporary(_ temporary: String, with name: String) -> String {
        guard !temporary.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: temporary) {
            out += rest[..<range.lowerBound] + name
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
