import Glibc
// libFuzzer harness for the files a kiosk reads (scripts/fuzz builds and runs it): scene files
// as the first page of a page graph (with the pages and text files they name),
// playlists (their page and picture items), draw lists (text ops among them), touch scripts, dump
// manifests, kiosk and schedule files, corrupted font files (DejaVu
// Sans with the input's (offset, byte) patches, opened and laid out) and video files (demuxed and
// decoded by FFmpeg from memory through Swell's glue); and what the management API reads from a
// browser: requests (routing, content paths, JSON bodies, served by the API with a fake kiosk),
// tokens files and listen addresses. The first byte of an input picks the loader, the rest is the
// file. Whatever loads is also rendered, small, by every renderer it can reach; an input that
// traps, overflows a buffer (AddressSanitizer) or leaks fails the run. A file that does not load
// must throw, never crash: the kiosk reloads its scene file whenever it is saved.
import SwellAPI
import SwellDrawList
import SwellJSON
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellText
import SwellVideo

let fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
nonisolated(unsafe) let fontBytes: [UInt8] = {
    guard let file = fopen(fontPath, "rb") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}()
let corruptFontPath = "/tmp/swell-fuzz-font-\(getpid()).ttf"

/// Writes the font with the patches, opens it, lays a line out and renders it: FreeType and
/// HarfBuzz cope with damaged tables, and the glue around them must as well.
func fuzzFont(_ patches: [UInt8]) {
    guard !fontBytes.isEmpty else { return }
    var bytes = fontBytes
    var i = 0
    while i + 5 <= patches.count {
        let offset = Int(patches[i]) | Int(patches[i + 1]) << 8 | Int(patches[i + 2]) << 16 | Int(patches[i + 3]) << 24
        bytes[offset % bytes.count] = patches[i + 4]
        i += 5
    }
    if patches.count % 5 == 4 { bytes.removeLast(bytes.count / 2) }  // a truncated file too
    guard let file = fopen(corruptFontPath, "wb") else { return }
    _ = fwrite(bytes, 1, bytes.count, file)
    fclose(file)
    let setter = Typesetter(glyphBudget: 1 << 20)
    guard let font = try? setter.fonts.font(file: corruptFontPath) else { return }
    let target = PixelBuffer(width: 64, height: 36)
    for size in [7.0, 23.5] {
        guard
            let run = try? setter.run(
                "Wave ffi AV 12 ש م", font: font, size: size, x: 1.3, y: 25, visible: target.surface.bounds)
        else { continue }
        render(
            DisplayList(
                width: 64, height: 36, background: Color(r: 1, g: 1, b: 1),
                shapes: [DrawCommand(.glyphs(run), color: Color(r: 0, g: 0, b: 0, a: 1))]), into: target.surface)
    }
}

let sceneTarget = PixelBuffer(width: 64, height: 36)

struct Refused: Error {}

/// A page or text file a fuzzed scene file names: a plain name in `pages/` (the shipped
/// examples and their text files, which scripts/fuzz copies there), else refused, so the page
/// graph's reading and checking are reached without the fuzzer reading the machine's files.
func readPage(_ name: String) throws -> [UInt8] {
    guard !name.isEmpty, !name.contains("/"), let file = fopen("pages/" + name, "rb") else { throw Refused() }
    defer { fclose(file) }
    var bytes = [UInt8](repeating: 0, count: 1 << 16)
    let count = fread(&bytes, 1, bytes.count, file)
    return Array(bytes[0..<count])
}

/// The input as the first page of a page graph (text elements, buttons, frames, `page`
/// actions to the pages it names), rendered with a tap in the middle (a button's action, a
/// page switch's wipe) and its text files taken up again as a changed file would be.
func fuzzPages(_ bytes: [UInt8]) {
    guard
        let player = try? loadPageGraph(
            bytes: bytes, name: "fuzz.json", read: readPage, loadImages: { _, _ in .none })
    else { return }
    for time in [0.0, 0.5] { player.render(at: time, into: sceneTarget.surface) }
    player.handle(TouchEvent(.began, finger: 0, x: 32, y: 18, time: 0.6))
    player.handle(TouchEvent(.ended, finger: 0, x: 32, y: 18, time: 0.7))
    _ = player.takeUp(changedTextFiles: player.textFiles, read: readPage)
    for time in [0.8, 1.2, 3.25, 100.0] { player.render(at: time, into: sceneTarget.surface) }
}

/// The input as a playlist file (`playlist/1`): its page items from `pages/` (as page graphs),
/// picture items as a small synthetic picture when the name is a page's (else refused), videos
/// refused; played across its changes and loops with taps (each tap action), the next items
/// prepared on the preparing thread.
func fuzzPlaylist(_ bytes: [UInt8]) {
    let loaders = PlaylistLoaders(
        read: readPage, loadImages: { _, _ in .none },
        loadPicture: { name in
            _ = try readPage(name)
            return SceneImages(names: [name]) { _, _ in PixelBuffer(width: 5, height: 3) }
        },
        journal: { _ in })
    guard let player = try? loadPlaylist(bytes: bytes, name: "fuzz.json", loaders: loaders) else { return }
    for time in [0.0, 0.5] { player.render(at: time, into: sceneTarget.surface) }
    player.handle(TouchEvent(.began, finger: 0, x: 32, y: 18, time: 0.6))
    player.handle(TouchEvent(.ended, finger: 0, x: 32, y: 18, time: 0.7))
    _ = player.isIdle(at: 0.8)
    _ = player.nextWake(after: 0.8)
    for time in [0.8, 1.2, 3.25, 100.0, 100.5] { player.render(at: time, into: sceneTarget.surface) }
    player.finishBackgroundWork()
}

/// The input as a video file: FFmpeg's demuxers and decoders read it from memory, and Swell's
/// glue around them (probing, the first picture at open, stamps, seeking back, conversion to a
/// fitted and a filled frame) must turn whatever they say into an error or pictures.
func fuzzVideo(_ bytes: [UInt8]) {
    guard let decoder = try? FFmpegDecoder(bytes: bytes) else { return }
    let target = PixelBuffer(width: 24, height: 18)
    for pass in 0..<2 {
        for _ in 0..<6 {
            guard let timing = try? decoder.advance() else { break }
            guard timing.end >= timing.start else { fatalError("a picture ends before it starts") }
            decoder.render(into: target.surface, scaling: VideoScaling(pass == 0 ? .fit : .fill))
        }
        try? decoder.seek(to: pass == 0 ? 0.1 : 1e9)
    }
}

/// A schedule file (`schedule/1`): parsed, then decided in the process's zone a day apart around
/// 2027's spring night, and its changes over a week listed: each decision holds its own instant,
/// and the changes come in order.
func fuzzSchedule(_ bytes: [UInt8]) {
    guard let schedule = try? parseScheduleFile(bytes: bytes, name: "/etc/swell/schedule.json") else { return }
    let start = 1_806_105_600.0  // 2027-03-27T00:00:00Z
    for output in [nil, "HDMI-A-1"] {
        for step in 0..<4 {
            let time = start + Double(step) * 43_200 + 0.5
            if let decision = schedule.decision(for: output, at: time) {
                guard decision.since <= time, time < decision.until else { fatalError("a decision outside its span") }
            }
        }
        let changes = schedule.changes(for: output, from: start, to: start + 7 * 86_400)
        guard zip(changes, changes.dropFirst()).allSatisfy({ $0.at < $1.at }) else {
            fatalError("changes out of order")
        }
    }
}

/// What the API asks of a kiosk, answered from nothing: one output, "memory", whose screens
/// cannot be turned off (409 for display/off), and no upload is ever checked (the harness sends
/// none with a token, see `fuzzRequest`).
final class FakeKiosk: KioskControl {
    func outputs() -> [OutputStatus] {
        [
            OutputStatus(
                connector: "memory", mode: "320x180@60", rotation: 0, shows: "menu.json", rule: nil,
                overridden: false, overrideUntil: nil, frames: 3, frameTimes: (3, 1.5, 2, 2.5, 0), powerOn: true)
        ]
    }
    func screenshotPNG(of connector: String) -> [UInt8]? { connector == "memory" ? [0x89, 0x50, 0x4E, 0x47] : nil }
    func show(content: String, on output: String?, forSeconds seconds: Double?) -> Problem? {
        output == nil || output == "memory" ? nil : Problem.notFound("no output \(output!)", field: "output")
    }
    func setScreens(on: Bool, output: String?) -> Result<[(connector: String, on: Bool)], Problem> {
        output == nil || output == "memory" ? .success([("memory", true)]) : .failure(Problem.notFound("no output"))
    }
    func check(upload temporary: String, for final: String) -> String? { fatalError("an upload reached the check") }
}

/// A content folder and a tokens file of the harness's own (a folder in /tmp, removed at exit):
/// files, a subfolder, a hidden file and symbolic links out of the folder and within it.
let apiFolder = "/tmp/swell-fuzz-api-\(getpid())"
func writeFile(_ path: String, _ text: String) {
    guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
    _ = fputs(text, file)
    fclose(file)
}

/// The API over that folder, with one token made at start (`apiToken`).
let (api, apiToken): (ManagementAPI, String) = {
    let content = apiFolder + "/content"
    for folder in [apiFolder, content, content + "/sub", content + "/sub/deeper"] { mkdir(folder, 0o755) }
    writeFile(content + "/menu.json", ##"{"format": "scene/1", "background": "#102030"}"##)
    writeFile(content + "/notes.txt", "Soup of the day\n")
    writeFile(content + "/sub/page.json", "{}")
    writeFile(content + "/sub/deeper/a b.csv", "a,b\n")
    writeFile(content + "/.hidden", "")
    symlink("/etc", content + "/out")
    symlink("/etc/hostname", content + "/outfile")
    symlink("menu.json", content + "/within.json")
    symlink("../../menu.json", content + "/sub/deeper/up.json")
    atexit {
        for name in ["/content/sub/deeper/a b.csv", "/content/sub/deeper/up.json", "/content/sub/page.json"] {
            unlink(apiFolder + name)
        }
        for name in ["menu.json", "notes.txt", ".hidden", "out", "outfile", "within.json"] {
            unlink(apiFolder + "/content/" + name)
        }
        for name in ["/content/sub/deeper", "/content/sub", "/content"] { rmdir(apiFolder + name) }
        unlink(apiFolder + "/tokens.json")
        rmdir(apiFolder)
    }
    let made = Tokens.make(name: "fuzz", now: 1_800_000_000)
    do {
        try TokenFile.write([made.record], to: apiFolder + "/tokens.json")
        let api = ManagementAPI(
            control: FakeKiosk(), tokens: try TokenVerifier(path: apiFolder + "/tokens.json"),
            content: try ContentFolder(content), version: "fuzz", cpu: "fuzz", journal: { _ in })
        return (api, made.token)
    } catch {
        fatalError("the API's folder: \(error)")
    }
}()

/// The input as a request: "METHOD PATH" on the first line, header lines, an empty line and the
/// body. Its parts are parsed as the API parses them (`APIFuzzing`), then the API serves it, body
/// and all. An Authorization header stands for the harness's own token: a fuzzed token would cost
/// an Argon2id check (about 0.1 s) each, and a right one is checked once, then remembered. PUT and
/// DELETE go without one (401), so the content folder stays as it is from input to input.
func fuzzRequest(_ bytes: [UInt8]) {
    var lines = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
    let first = lines.removeFirst()
    let space = first.firstIndex(of: 0x20) ?? first.endIndex
    let method = String(decoding: first[..<space], as: UTF8.self)
    let path = String(decoding: first[space...].dropFirst(), as: UTF8.self)
    var rest = lines.first ?? []
    var headers: [(name: String, value: String)] = []
    while let end = rest.firstIndex(of: 0x0A) {
        let line = rest[..<end]
        rest = rest[(end + 1)...]
        if line.isEmpty { break }
        let colon = line.firstIndex(of: 0x3A) ?? line.endIndex
        headers.append(
            (
                String(decoding: line[..<colon], as: UTF8.self),
                String(decoding: line[colon...].dropFirst(), as: UTF8.self)
            )
        )
    }
    let body = Array(rest)
    APIFuzzing.handle(method: method, path: path, body: body)

    // A content path taken is the one asked for, in plain parts.
    if let checked = try? ContentPath(path) {
        guard checked.description == path,
            checked.parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("/") && !$0.contains("\\") })
        else { fatalError("a content path let through: \(path)") }
    }
    let route = try? APIRoute.find(method: method, path: path)
    var authorized = false
    if case .content(_, let how) = route, how != "GET" {
        headers.removeAll { $0.name.lowercased() == "authorization" }
    } else {
        for i in headers.indices where headers[i].name.lowercased() == "authorization" {
            headers[i].value = "Bearer " + apiToken
            authorized = true
        }
    }
    let response: HTTPResponse
    switch api.begin(HTTPRequestHead(method: method, path: path, client: "192.0.2.7", headers: headers)) {
    case .respond(let answer):
        response = answer
    case .read(let sink, let limit):
        guard authorized else { fatalError("a body read without a token: \(method) \(path)") }
        // As the server hands it over: in pieces, and past the limit the connection is closed.
        var refused: HTTPResponse?
        for start in stride(from: 0, to: min(body.count, limit), by: 1000) where refused == nil {
            refused = body[start..<min(start + 1000, body.count, limit)].withUnsafeBytes { sink.write($0) }
        }
        if refused == nil && body.count > limit {
            sink.abandon()
            return
        }
        response = refused ?? sink.finish()
    }
    if let route, route.needsToken, !authorized, response.status != 401 {
        fatalError("\(method) \(path) answered \(response.status) without a token")
    }
    if response.status == 405, response.header("Allow") == nil { fatalError("a 405 without Allow") }
    if response.status >= 400 {
        guard response.header("Content-Type") == "application/problem+json", (try? parseJSON(response.body)) != nil
        else { fatalError("\(response.status) without a problem document") }
    }
}

/// A tokens file (`tokens/1`): what loads is written out again and reads back the same.
func fuzzTokens(_ bytes: [UInt8]) {
    guard let records = try? TokenFile.parse(bytes, path: "/etc/swell/tokens.json") else { return }
    let text = TokenFile.text(records)
    guard let again = try? TokenFile.parse(Array(text.utf8), path: "/etc/swell/tokens.json"),
        again.map(\.name) == records.map(\.name), again.map(\.id) == records.map(\.id),
        again.map(\.hash) == records.map(\.hash)
    else { fatalError("a tokens file does not read back: \(text)") }
}

/// A line as an API listen address (`--api`, a kiosk file's "api"."listen") and as a token's
/// shape: an address taken is written back the same way.
func fuzzListen(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = Tokens.id(of: text)
    guard let place = ManagementSettings.listenAddress(text) else { return }
    let again = place.address.contains(":") ? "[\(place.address)]:\(place.port)" : "\(place.address):\(place.port)"
    guard place.port > 0, let back = ManagementSettings.listenAddress(again), back == place else {
        fatalError("a listen address does not read back: \(text)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let bytes = Array(UnsafeRawBufferPointer(start: start + 1, count: count - 1))
    switch start.load(as: UInt8.self) % 12 {
    case 0:
        fuzzPages(bytes)
    case 1:
        // Draw lists may be up to 16384 pixels a side; only small ones are rendered (time, not
        // safety: the kernels clip every shape to the frame).
        if let frame = try? parseDrawList(bytes: bytes, name: "fuzz.json"), frame.width * frame.height <= 1 << 16 {
            let target = PixelBuffer(width: frame.width, height: frame.height)
            render(frame, into: target.surface)
            FrameRenderer(threads: 1, bandHeight: 7).render(frame, into: target.surface, tracksDamage: false)
        }
    case 4:
        fuzzFont(bytes)
    case 5:
        fuzzVideo(bytes)
    case 6:
        // A kiosk file: parsed into a plan, and its differences from itself (what a changed file
        // compares) are none.
        if let plan = try? parseKioskFile(bytes: bytes, name: "/etc/swell/kiosk.json") {
            guard plan.differences(from: plan).isEmpty else { fatalError("a plan differs from itself") }
        }
    case 7:
        fuzzSchedule(bytes)
    case 8:
        fuzzPlaylist(bytes)
    case 9:
        fuzzRequest(bytes)
    case 10:
        fuzzTokens(bytes)
    case 11:
        fuzzListen(bytes)
    case 2:
        _ = try? parseTouchScript(bytes: bytes, name: "fuzz.json")
    default:
        _ = try? DumpManifest.parse(bytes: bytes, name: "manifest.json")
    }
    return 0
}
