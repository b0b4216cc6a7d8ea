import SwellAPI
import SwellJSON
import SwellSystem
import Testing

/// A kiosk of one output that records what it was asked.
private final class FakeKiosk: KioskControl, @unchecked Sendable {
    var shown: [(String, String?, Double?)] = []
    var screens: [Bool] = []

    func outputs() -> [OutputStatus] {
        [
            OutputStatus(
                connector: "HDMI-A-1", mode: "1920x1080@60", rotation: 0, shows: "menu.json", rule: "lunch",
                overridden: false, overrideUntil: nil, frames: 12, frameTimes: (12, 1.5, 3.25, 4, 0), powerOn: true)
        ]
    }
    func screenshotPNG(of connector: String) -> [UInt8]? { connector == "HDMI-A-1" ? [0x89, 0x50, 0x4E, 0x47] : nil }
    func show(content: String, on output: String?, forSeconds seconds: Double?) -> Problem? {
        shown.append((content, output, seconds))
        return nil
    }
    func setScreens(on: Bool, output: String?) -> Result<[(connector: String, on: Bool)], Problem> {
        screens.append(on)
        return .success([("HDMI-A-1", on)])
    }
    func check(upload temporary: String, for final: String) -> String? {
        final.hasSuffix("bad.json") ? "\(temporary): $: missing \"layers\"" : nil
    }
}

@Suite struct ManagementAPITests {
    private func makeAPI() throws -> (ManagementAPI, FakeKiosk, token: String, root: String, journal: Lines) {
        let base = try temporaryFolder()
        try makeDirectory(base + "/content")
        try Array("{}".utf8).withUnsafeBytes { try writeFileAtomically($0, toPath: base + "/content/menu.json") }
        let made = Tokens.make(name: "alice", now: 0)
        try TokenFile.write([made.record], to: base + "/tokens.json")
        let kiosk = FakeKiosk()
        let lines = Lines()
        let api = ManagementAPI(
            control: kiosk, tokens: try TokenVerifier(path: base + "/tokens.json"),
            content: try ContentFolder(base + "/content"), version: "1.0", cpu: "x86-64-v3",
            logins: FailedLogins(limit: 3, window: 60, block: 60), journal: { lines.append($0) })
        return (api, kiosk, made.token, canonicalPath(base + "/content")!, lines)
    }

    private func request(_ method: String, _ path: String, token: String? = nil, client: String = "10.0.0.2")
        -> HTTPRequestHead
    {
        HTTPRequestHead(
            method: method, path: path, client: client,
            headers: token.map { [("Authorization", "Bearer " + $0)] } ?? [])
    }

    /// The answer to a request, feeding `body` to a body reader.
    private func answer(_ api: ManagementAPI, _ head: HTTPRequestHead, body: String = "") -> HTTPResponse {
        switch api.begin(head) {
        case .respond(let response): return response
        case .read(let sink, let limit):
            #expect(body.utf8.count <= limit)
            if let early = Array(body.utf8).withUnsafeBytes({ sink.write($0) }) { return early }
            return sink.finish()
        }
    }

    private func json(_ response: HTTPResponse) throws -> JSONField {
        JSONField(root: try parseJSON(response.body))
    }

    @Test func thePageNeedsNoTokenAndTheAPIDoes() throws {
        let (api, _, token, _, _) = try makeAPI()
        let page = answer(api, request("GET", "/"))
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let refused = answer(api, request("GET", "/api/v1/status"))
        #expect(refused.status == 401)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let status = answer(api, request("GET", "/api/v1/status", token: token))
        #expect(status.status == 200)
        let root = try json(status)
        #expect(try root["version"].string() == "1.0")
        #expect(try root["cpu"].string() == "x86-64-v3")
        let output = try root["outputs"].array()[0]
        #expect(try output["connector"].string() == "HDMI-A-1")
        #expect(try output["rule"].string() == "lunch")
        #expect(try output["frameTime"]["p99"].number() == 3.25)
        #expect(try output["power"].string() == "on")
        #expect(try root["disk"]["total"].number() > 0)
    }

    @Test func wrongTokensAreCountedPerAddressThenRefused() throws {
        let (api, _, token, _, journal) = try makeAPI()
        for _ in 0..<3 {
            #expect(answer(api, request("GET", "/api/v1/status", token: token + "x")).status == 401)
        }
        let blocked = answer(api, request("GET", "/api/v1/status", token: token))
        #expect(blocked.status == 429)
        #expect(blocked.header("Retry-After") == "60")
        // Another address is not blocked.
        #expect(answer(api, request("GET", "/api/v1/status", token: token, client: "10.0.0.3")).status == 200)
        #expect(journal.lines.count == 3)
        #expect(journal.lines.last?.contains("blocked for 60 s") == true)
        #expect(journal.lines.first?.contains("10.0.0.2") == true)
    }

    @Test func showNamesTheFieldAtFault() throws {
        let (api, kiosk, token, root, _) = try makeAPI()
        let shown = answer(
            api, request("POST", "/api/v1/show", token: token), body: #"{"content": "menu.json", "for": 600}"#)
        #expect(shown.status == 200)
        #expect(kiosk.shown.count == 1)
        #expect(kiosk.shown.first?.0 == root + "/menu.json")
        #expect(kiosk.shown.first?.2 == 600)
        let cases: [(String, Int, String?)] = [
            (#"{"for": 5}"#, 400, "content"), (#"{"content": 5}"#, 400, "content"),
            (#"{"content": "../x.json"}"#, 400, "content"),
            (#"{"content": "nope.json"}"#, 404, "path"), (#"{"content": "menu.json", "colour": 1}"#, 400, nil),
            ("not json", 400, nil), (#"{"content": "menu.json", "for": -1}"#, 400, "for"),
        ]
        for (body, status, field) in cases {
            let problem = answer(api, request("POST", "/api/v1/show", token: token), body: body)
            #expect(problem.status == status, "\(body)")
            if let field { #expect(try json(problem)["field"].string() == field, "\(body)") }
        }
        #expect(kiosk.shown.count == 1)
    }

    @Test func uploadsAreCheckedAndNamedAsSent() throws {
        let (api, _, token, root, _) = try makeAPI()
        let bad = answer(api, request("PUT", "/api/v1/content/bad.json", token: token), body: "{}")
        #expect(bad.status == 422)
        let detail = try json(bad)["detail"].string()
        #expect(detail.hasPrefix("bad.json: $"))
        #expect(!fileExists(root + "/bad.json"))
        #expect(try directoryNames(root) == ["menu.json"])
        let good = answer(api, request("PUT", "/api/v1/content/prices.txt", token: token), body: "Tea 2\n")
        #expect(good.status == 201)
        let back = answer(api, request("GET", "/api/v1/content/prices.txt", token: token))
        #expect(back.body == Array("Tea 2\n".utf8))
        #expect(back.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(answer(api, request("DELETE", "/api/v1/content/prices.txt", token: token)).status == 204)
        #expect(answer(api, request("GET", "/api/v1/content/prices.txt", token: token)).status == 404)
    }

    @Test func screensAndScreenshots() throws {
        let (api, kiosk, token, _, _) = try makeAPI()
        let off = answer(api, request("POST", "/api/v1/display/off", token: token))
        #expect(off.status == 200)
        #expect(try json(off)["outputs"].array()[0]["power"].string() == "off")
        #expect(kiosk.screens == [false])
        let png = answer(api, request("GET", "/api/v1/outputs/HDMI-A-1/screenshot.png", token: token))
        #expect(png.header("Content-Type") == "image/png")
        #expect(png.body == [0x89, 0x50, 0x4E, 0x47])
        let missing = answer(api, request("GET", "/api/v1/outputs/DP-9/screenshot.png", token: token))
        #expect(missing.status == 404)
    }
}

final class Lines: @unchecked Sendable {
    private let lock = Lock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}

@Suite struct FailedLoginsTests {
    @Test func blocksAfterTheLimitAndDoublesTheBlock() {
        final class Clock: @unchecked Sendable { var now = 0.0 }
        let clock = Clock()
        let logins = FailedLogins(limit: 3, window: 60, block: 60, capacity: 2, clock: { clock.now })
        #expect(logins.failed("a").count == 1)
        #expect(logins.failed("a").count == 2)
        #expect(logins.blocked("a") == nil)
        #expect(logins.failed("a").blockedFor == 60)
        #expect(logins.blocked("a") == 60)
        clock.now = 61
        #expect(logins.blocked("a") == nil)
        for _ in 0..<2 { _ = logins.failed("a") }
        #expect(logins.failed("a").blockedFor == 120)
        // Failures older than the window do not count.
        clock.now = 1000
        _ = logins.failed("b")
        clock.now = 1100
        #expect(logins.failed("b").count == 1)
        logins.succeeded("b")
        #expect(logins.failed("b").count == 1)
        // Capacity 2: a third address pushes out the oldest.
        clock.now = 1200
        _ = logins.failed("c")
        #expect(logins.blocked("a") == nil)
    }
}

@Suite struct SelfSignedCertificateTests {
    @Test func makesAPairWithAFingerprint() throws {
        let pair = try SelfSignedCertificate.make(names: ["kiosk-7", "localhost"])
        #expect(pair.certificate.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(pair.key.contains("PRIVATE KEY-----"))
        let fingerprint = try #require(SelfSignedCertificate.fingerprint(pair.certificate))
        #expect(fingerprint.count == 32 * 3 - 1)
        let other = try SelfSignedCertificate.make(names: ["kiosk-7"])
        #expect(SelfSignedCertificate.fingerprint(other.certificate) != fingerprint)
        #expect(SelfSignedCertificate.fingerprint("not a certificate") == nil)
    }
}
