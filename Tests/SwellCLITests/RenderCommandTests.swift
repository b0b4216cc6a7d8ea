import Foundation
import SwellDrawList
import SwellOutput
import SwellRaster
import Testing

/// Runs the built `swell` binary (a sibling of the test bundle) and checks exit statuses,
/// messages and that failed runs leave no output file behind.
struct SwellProcess {
    static var binary: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("swell").path
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }
}

func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "swell-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func benchListPath(_ name: String) -> String {
    let here = #filePath
    return String(here[..<here.firstRange(of: "/Tests/")!.lowerBound]) + "/bench-data/\(name).json"
}

@Suite struct RenderCommandTests {
    @Test func rendersRawAndPNGThatMatchTheLibraryRender() throws {
        let folder = try temporaryFolder()
        let list = benchListPath("waves")
        let run = try SwellProcess.run(["render", list, "-o", folder + "/w.raw"])
        #expect(run.status == 0, "\(run.stderr)")
        let rawSize = try FileManager.default.attributesOfItem(atPath: folder + "/w.raw")[.size] as! Int
        #expect(rawSize == 1920 * 1080 * 4)

        let frame = try loadDrawList(path: list)
        let expected = PixelBuffer(width: 1920, height: 1080)
        render(frame, into: expected.surface)
        let raw = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/w.raw")))
        #expect(raw == packedRows(expected.surface))

        #expect(try SwellProcess.run(["render", list, "-o", folder + "/w.png"]).status == 0)
        let decoded = try readPNG(path: folder + "/w.png")
        #expect(decoded.width == 1920 && decoded.height == 1080)
        #expect(packedRows(decoded.surface) == packedRows(expected.surface))
    }

    @Test func repeatPrintsOneTimingLine() throws {
        let run = try SwellProcess.run(["render", benchListPath("ripples-60"), "--repeat", "5"])
        #expect(run.status == 0)
        let line = run.stdout.trimmingCharacters(in: .newlines)
        #expect(line.wholeMatch(of: /median_ms=\d+\.\d{3} p95_ms=\d+\.\d{3}/) != nil, "\(line)")
    }

    @Test(arguments: [
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"ring","cx":1,"cy":2,"radius":-2,"width":1,"color":[1,0,0,1]}]}"#,
            "$.ops[0].radius"
        ),
        (#"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"ring","cx":NaN}]}"#, "NaN"),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"ring","cx":1e999,"cy":1,"radius":1,"width":1,"color":[0,0,0]}]}"#,
            "$.ops[0].cx: expected a finite number"
        ),
        (#"{"format":"drawlist/1","width":17000,"height":10,"clear":[1,1,1],"ops":[]}"#, "$.width"),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"blob","color":[0,0,0]}]}"#,
            "$.ops[0].op"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"disc","cx":1,"cy":1,"radius":true,"color":[0,0,0]}]}"#,
            "$.ops[0].radius: expected a number, got true"
        ),
        (#"{"format":"drawlist/1","#, "not valid JSON"),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"Hi","font":"/nonexistent/font.ttf","size":12,"x":1,"y":8,"color":[0,0,0,1]}]}"#,
            "$.ops[0].font: font file /nonexistent/font.ttf does not exist"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"Hi","font":"/etc/hostname","size":12,"x":1,"y":8,"color":[0,0,0,1]}]}"#,
            "$.ops[0].font: /etc/hostname is not a font FreeType can open"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"Hi","font":"Nosuchfamily Sans:bold","size":12,"x":1,"y":8,"color":[0,0,0,1]}]}"#,
            "$.ops[0].font: no installed font matches \"Nosuchfamily Sans:bold\": fontconfig's closest is"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"Hi","font":"Quicksandx","size":12,"x":1,"y":8,"color":[0,0,0,1]}]}"#,
            "closest is"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"Hi","font":"DejaVu Sans","size":0,"x":1,"y":8,"color":[0,0,0,1]}]}"#,
            "$.ops[0].size: text size 0.0 is not in 0 < size"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"Hi","font":"DejaVu Sans","size":-3,"x":1,"y":8,"color":[0,0,0,1]}]}"#,
            "$.ops[0].size"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"Hi","font":"DejaVu Sans","size":5000,"x":1,"y":8,"color":[0,0,0,1]}]}"#,
            "$.ops[0].size: text size 5000.0 is not in 0 < size ≤ 1024"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"a\ud800b","font":"DejaVu Sans","size":9,"x":1,"y":8,"color":[0,0,0,1]}]}"#,
            "unpaired surrogate"
        ),
        (
            #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[{"op":"text","text":"a","font":"DejaVu Sans","size":9,"x":1,"y":8,"features":["t@@"],"color":[0,0,0,1]}]}"#,
            "$.ops[0].features: \"t@@\" is not an OpenType feature"
        ),
    ])
    func malformedListsExit65WithOneLineAndNoOutput(text: String, expected: String) throws {
        let folder = try temporaryFolder()
        let list = folder + "/bad.json"
        try text.write(toFile: list, atomically: true, encoding: .utf8)
        for output in ["out.png", "out.raw"] {
            let run = try SwellProcess.run(["render", list, "-o", folder + "/" + output])
            #expect(run.status == 65)
            #expect(run.stderr.hasPrefix("swell render: \(list): "), "\(run.stderr)")
            #expect(run.stderr.contains(expected), "\(run.stderr)")
            #expect(run.stderr.filter { $0 == "\n" }.count == 1)
            #expect(!FileManager.default.fileExists(atPath: folder + "/" + output))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["bad.json"])
    }

    static let badCommandLines: [([String], Int32)] = [
        ([], 64), (["render"], 64), (["render", "a.json", "-o", "x.jpg"], 64),
        (["render", "a.json", "--frobnicate"], 64),
        (["render", "a.json", "--repeat", "0"], 64), (["nosuchverb"], 64),
        (["render", "/nonexistent.json", "-o", "/tmp/x.png"], 66),
    ]

    @Test(arguments: badCommandLines)
    func usageErrorsAndMissingInputs(arguments: [String], status: Int32) throws {
        let run = try SwellProcess.run(arguments)
        #expect(run.status == status, "\(arguments): \(run.stderr)")
        #expect(!run.stderr.isEmpty)
    }

    @Test func unwritableOutputExits73() throws {
        let run = try SwellProcess.run(["render", benchListPath("ripples-60"), "-o", "/nonexistent-folder/x.png"])
        #expect(run.status == 73)
        #expect(run.stderr.contains("/nonexistent-folder/x.png: cannot create"))
    }

    @Test func everyVerbHasHelp() throws {
        let overview = try SwellProcess.run(["--help"])
        #expect(overview.status == 0)
        let verbs = overview.stdout.split(separator: "\n").drop(while: { $0 != "verbs:" }).dropFirst()
            .map { String($0.split(separator: " ").first!) }
        #expect(verbs.contains("render"))
        for verb in verbs {
            let help = try SwellProcess.run([verb, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("usage: swell \(verb)"))
        }
    }
}
