import CSysShims
import SwellAPI
import SwellDisplay
import SwellLoop
import SwellOutput
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellService
import SwellSystem

/// The management API as `swell run` starts it: what it needs is read and checked before any
/// display is taken (`prepareManagement`), and it listens once the loop exists
/// (`PreparedManagement.start`); `stop` closes it when the loop has ended.
struct PreparedManagement {
    let settings: ManagementSettings
    let tokens: TokenVerifier
    let folder: ContentFolder
    let identity: TLSIdentity?
}

/// Reads the tokens file, the certificate (made beside the tokens file when the admin gave
/// none) and the content folder. Exit statuses: 66 for a missing tokens file, 65 for one that is
/// not one, 73 when the certificate cannot be made.
func prepareManagement(_ settings: ManagementSettings, contentFolder: String) throws -> PreparedManagement {
    guard fileExists(settings.tokens) else {
        throw CommandFailure(
            ExitStatus.noInput,
            "the API's tokens file \(settings.tokens) does not exist; make a token first: swell token add NAME --tokens \(settings.tokens)"
        )
    }
    let tokens: TokenVerifier
    do {
        tokens = try TokenVerifier(path: settings.tokens)
    } catch {
        throw CommandFailure(ExitStatus.dataError, error.description)
    }
    if tokens.count == 0 {
        kioskWarn(
            "api: \(settings.tokens) has no tokens: every request is refused until one is added (swell token add NAME --tokens \(settings.tokens))"
        )
    }
    let identity = settings.usesTLS ? try tlsIdentity(settings) : nil
    let tls = tlsFiles(settings)
    let folder: ContentFolder
    do {
        folder = try ContentFolder(
            contentFolder, uploadLimit: settings.uploadLimitMiB << 20,
            privateFiles: [settings.tokens, tls.certificate, tls.key])
    } catch {
        throw CommandFailure(ExitStatus.noInput, "the API's content folder: \(error.detail)")
    }
    folder.removeStaleUploads()
    return PreparedManagement(settings: settings, tokens: tokens, folder: folder, identity: identity)
}

/// `--check` of a kiosk file's "api": its tokens file and certificate can be read (nothing is
/// made); says where it would serve.
func checkManagement(_ settings: ManagementSettings) throws -> String {
    let count: Int
    do {
        guard fileExists(settings.tokens) else {
            throw CommandFailure(
                ExitStatus.noInput,
                "the API's tokens file \(settings.tokens) does not exist; make a token first: swell token add NAME --tokens \(settings.tokens)"
            )
        }
        count = try TokenFile.read(settings.tokens).count
    } catch let error as TokenFileError {
        throw CommandFailure(ExitStatus.dataError, error.description)
    }
    for path in [settings.certificate, settings.key].compactMap({ $0 }) where readError(path) != nil {
        throw CommandFailure(
            ExitStatus.noInput, "the API's certificate or key \(path): cannot read: \(readError(path)!)")
    }
    let scheme = settings.usesTLS ? "https" : "http"
    return
        "the API on \(scheme)://\(hostPort(settings.address, settings.port))/ with \(count) token\(count == 1 ? "" : "s")"
}

/// The admin's certificate and key, or the self-signed pair beside the tokens file (made now if
/// missing: the key readable by its owner alone).
private func tlsIdentity(_ settings: ManagementSettings) throws -> TLSIdentity {
    let (certificatePath, keyPath) = tlsFiles(settings)
    if settings.certificate == nil, let names = try makeSelfSignedPair(certificate: certificatePath, key: keyPath) {
        kioskWarn(
            "api: made a self-signed certificate \(certificatePath) for \(names.joined(separator: ", ")); "
                + "give your own with the kiosk file's \"api\": {\"certificate\", \"key\"}")
    }
    func readPEM(_ path: String, _ what: String) throws -> String {
        do {
            return String(decoding: try readWholeFile(path, limit: 1 << 20), as: UTF8.self)
        } catch {
            throw CommandFailure(ExitStatus.noInput, "the API's \(what) \(path): cannot read: \(error)")
        }
    }
    return TLSIdentity(certificate: try readPEM(certificatePath, "certificate"), key: try readPEM(keyPath, "key"))
}

/// Makes the self-signed pair (the key readable by its owner alone) when either file is missing;
/// the names it is for, or nil when both were there. Exit status 73 when it cannot be written.
func makeSelfSignedPair(certificate certificatePath: String, key keyPath: String) throws -> [String]? {
    guard !fileExists(certificatePath) || !fileExists(keyPath) else { return nil }
    let names = [hostName(), "localhost"].filter { !$0.isEmpty }
    do {
        let made = try SelfSignedCertificate.make(names: names)
        try writePrivateFileAtomically(Array(made.key.utf8), to: keyPath)
        try writeFileAtomically(Array(made.certificate.utf8), to: certificatePath)
    } catch {
        throw CommandFailure(ExitStatus.cannotCreate, "cannot make the API's certificate \(certificatePath): \(error)")
    }
    return names
}

/// The certificate and key files: the admin's, or the self-signed pair's beside the tokens file.
func tlsFiles(_ settings: ManagementSettings) -> (certificate: String, key: String) {
    let folder = settings.tokens.lastIndex(of: "/").map { String(settings.tokens[...$0]) } ?? ""
    return (settings.certificate ?? folder + "api-certificate.pem", settings.key ?? folder + "api-key.pem")
}

/// The network interfaces this process sees (/proc/net/dev), e.g. ["lo", "eth0"].
private func networkInterfaces() -> [String] {
    guard let bytes = try? readWholeFile("/proc/net/dev", limit: 1 << 20) else { return [] }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst(2).compactMap { line in
        line.split(separator: ":").first.map { String($0.filter { $0 != " " }) }
    }
}

/// The host's name (for the self-signed certificate); "" when unknown.
private func hostName() -> String {
    firstLine(ofFile: "/proc/sys/kernel/hostname") ?? ""
}

extension PreparedManagement {
    /// Listens, serving `control`; says where in the journal.
    func start(_ control: KioskRemote) throws -> HTTPServer {
        let api = ManagementAPI(
            control: control, tokens: tokens, content: folder, version: String(cString: swell_build_version()),
            cpu: compiledFlavourName())
        let server: HTTPServer
        do {
            server = try HTTPServer(
                HTTPServerSettings(address: settings.address, port: settings.port, tls: identity), service: api)
        } catch {
            throw CommandFailure(ExitStatus.unavailable, "the API \(error)")
        }
        let place = hostPort(settings.address, server.port)
        if let identity {
            let fingerprint = SelfSignedCertificate.fingerprint(identity.certificate) ?? "unknown"
            kioskWarn("api: serving https://\(place)/ (TLS 1.2 and 1.3; certificate SHA-256 \(fingerprint))")
        } else {
            let why = settings.isLoopback ? "loopback only" : "plain HTTP as the kiosk file asks: put TLS in front"
            kioskWarn("api: serving http://\(place)/ (\(why))")
        }
        kioskWarn("api: content folder \(folder.root), tokens \(settings.tokens)")
        if !settings.isLoopback, networkInterfaces() == ["lo"] {
            kioskWarn(
                "api: this process sees no network but loopback (the unit's PrivateNetwork=yes?); "
                    + "install /usr/share/swell/swell-kiosk-api.conf as a drop-in (docs/kiosk.md)")
        }
        return server
    }
}

/// The running kiosk as the API sees it. Requests come on the server's threads: the presented
/// frames and the frame times are read through each output's `OutputMonitor`; what touches the
/// contents runs on the loop's thread through its mailbox.
final class KioskRemote: KioskControl, @unchecked Sendable {
    private let loop: KioskLoop
    private let mailbox: LoopMailbox
    /// One per content (a span has one over all its outputs).
    private let managed: [ManagedContent]
    /// Output index → content index.
    private let contentOfOutput: [Int]
    /// Read at start: the connectors do not change while the loop runs.
    private let connectors: [String]
    private let root: String
    private let load: (String) throws -> ScenePlayer

    init(
        loop: KioskLoop, mailbox: LoopMailbox, managed: [ManagedContent], span: Bool, root: String,
        load: @escaping (String) throws -> ScenePlayer
    ) {
        self.loop = loop
        self.mailbox = mailbox
        self.managed = managed
        contentOfOutput = loop.presenters.indices.map { span ? 0 : $0 }
        connectors = loop.presenters.map(\.display.output)
        screenshots = Array(repeating: nil, count: loop.presenters.count)
        self.root = root
        self.load = load
    }

    /// A path inside the content folder as relative to it; others as they are.
    private func relative(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : (canonicalPath(path) ?? path)
        return absolute.hasPrefix(root + "/") ? String(absolute.dropFirst(root.count + 1)) : path
    }

    func outputs() -> [OutputStatus] {
        let now = monotonicSeconds()
        let looked = mailbox.run(ended: [] as [(DisplayInfo, Int, String, String?, Bool, Double?)]) { [self] loop in
            let time = loop.contentTime
            let wall = realtimeSeconds()
            return loop.presenters.indices.map { index in
                let content = managed[contentOfOutput[index]]
                let overridden = content.override != nil
                let rule = overridden ? nil : content.scheduled?.decision.map { $0.rule ?? "default" }
                return (
                    loop.presenters[index].display, loop.presenters[index].rotation.rawValue, content.scene.name, rule,
                    overridden, content.shownUntil(at: time, wall: wall)
                )
            }
        }
        return looked.enumerated().map { index, output in
            let (display, rotation, shows, rule, overridden, until) = output
            let summary = loop.monitors[index].summary(now: now, budget: 1000 / max(display.refreshHz, 1))
            return OutputStatus(
                connector: display.output,
                mode: "\(display.panelWidth)x\(display.panelHeight)@\(Int(display.refreshHz.rounded()))",
                rotation: rotation, shows: relative(shows), rule: rule, overridden: overridden, overrideUntil: until,
                frames: summary.frames, frameTimes: summary.recent, powerOn: summary.screenOn)
        }
    }

    /// Each output's last screenshot and when its frame was copied (read and written under that
    /// output's snapshot lock, `OutputMonitor.withPresentedFrame`).
    private var screenshots: [(copiedAt: Double, png: [UInt8])?]

    /// One screenshot of an output at a time: the callers waiting meanwhile take the next one
    /// (made after they asked), so fifty clients cost one copy and one encoding, not fifty.
    func screenshotPNG(of connector: String) -> [UInt8]? {
        guard let index = connectors.firstIndex(of: connector) else { return nil }
        return loop.monitors[index].withPresentedFrame(through: mailbox, output: index) { frame, copiedAt in
            guard let frame else { return [] }
            if let last = screenshots[index], last.copiedAt == copiedAt { return last.png }
            let png = (try? encodePNG(frame.surface, path: "the screenshot of \(connector)", fast: true)) ?? []
            screenshots[index] = (copiedAt, png)
            return png
        }
    }

    /// The content index of `output` (nil: the only one), or the problem.
    private func contentIndex(_ output: String?) -> Result<Int, Problem> {
        guard let output else {
            guard Set(contentOfOutput).count == 1 else {
                return .failure(
                    .badRequest(
                        "this kiosk has several outputs (\(connectors.joined(separator: ", "))); name one",
                        field: "output"))
            }
            return .success(0)
        }
        guard let index = connectors.firstIndex(of: output) else {
            return .failure(
                .badRequest(
                    "no output \(output); this kiosk has \(connectors.joined(separator: ", "))", field: "output"))
        }
        return .success(contentOfOutput[index])
    }

    func show(content: String, on output: String?, forSeconds seconds: Double?) -> Problem? {
        let index: Int
        switch contentIndex(output) {
        case .success(let found): index = found
        case .failure(let problem): return problem
        }
        return mailbox.run(ended: Problem(status: 503, title: "Service Unavailable", detail: "the kiosk is stopping")) {
            [self] loop in
            do {
                try managed[index].show(content, forSeconds: seconds, at: loop.contentTime, wall: realtimeSeconds())
                return nil
            } catch {
                return .unprocessable(
                    "\(relative(content)) was not shown: \(CommandFailure.message(of: error))", field: "content")
            }
        }
    }

    func setScreens(on: Bool, output: String?) -> Result<[(connector: String, on: Bool)], Problem> {
        var index: Int?
        if let output {
            guard let found = connectors.firstIndex(of: output) else {
                return .failure(
                    .badRequest(
                        "no output \(output); this kiosk has \(connectors.joined(separator: ", "))", field: "output"))
            }
            index = found
        }
        let chosen = mailbox.run(ended: [Int]()) { loop in loop.requestScreen(on: on, output: index) }
        // The request is taken up in the loop's round that ran it; the next round reads the result.
        let powers = mailbox.run(ended: [Bool]()) { loop in chosen.map { loop.screenIsOn(output: $0) } }
        return .success(zip(chosen, powers).map { (connectors[$0], $1) })
    }

    func check(upload temporary: String, for final: String) -> String? {
        let lowered = final.lowercased()
        if lowered.hasSuffix(".json") {
            // Loaded as `swell run` loads it, on the loop's thread as a changed file is.
            return mailbox.run(ended: "the kiosk is stopping") { [load] _ in
                do {
                    _ = try load(temporary)
                    return nil
                } catch {
                    return CommandFailure.message(of: error)
                }
            }
        }
        do {
            if lowered.hasSuffix(".png") || lowered.hasSuffix(".jpg") || lowered.hasSuffix(".jpeg") {
                _ = try readPictureSize(path: temporary)
            } else if lowered.hasSuffix(".txt") || lowered.hasSuffix(".csv") {
                let bytes = try readWholeFile(temporary)
                if String(validating: bytes, as: UTF8.self) == nil { return "not UTF-8 text" }
            }
        } catch {
            return "\(error)"
        }
        return nil
    }
}
