import SwellRaster
import SwellScenes
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SceneFileTests {
    func problems(_ text: String) -> [String] {
        do {
            _ = try loadSceneFile(bytes: Array(text.utf8), name: "t.json") { _ in .none }
            return []
        } catch {
            return error.problems
        }
    }

    @Test func everyProblemIsReportedWithPathValueAndWhatIsAllowed() {
        let found = problems(
            """
            {"format": "scene/2", "colour": 1,
             "layers": [{"scene": "ripples", "parameters": {"speed": -3, "metrics": "yes", "sped": 1}},
                        {"scene": "ripplez"},
                        {"scene": "elastic", "parameters": {"color": "#12345"}}]}
            """)
        #expect(found.count == 7, "\(found)")
        #expect(
            found.contains(
                "$.colour: unknown member; allowed here: format, background, scene, parameters, layers, height"))
        #expect(found.contains("$.format: expected one of \"scene/1\", got \"scene/2\""))
        #expect(found.contains("$.layers[0].parameters.speed: expected a number in 0...10000, got -3"))
        #expect(found.contains("$.layers[0].parameters.metrics: expected true or false, got \"yes\""))
        #expect(
            found.contains {
                $0.hasPrefix("$.layers[0].parameters.sped: \"ripples\" has no parameter \"sped\"; it has: speed,")
            })
        #expect(
            found.contains {
                $0.hasPrefix("$.layers[1].scene: expected one of \"wave\", \"ripples\"")
                    && $0.hasSuffix("got \"ripplez\"")
            })
        #expect(
            found.contains(
                "$.layers[2].parameters.color: expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", got \"#12345\""))
    }

    @Test func structuralMistakes() {
        #expect(
            problems("{\"scene\": \"wave\", \"layers\": []}") == [
                "$: give either \"scene\" (one scene) or \"layers\" (several), not both"
            ])
        #expect(problems("{}").first?.hasPrefix("$: missing \"scene\"") == true)
        #expect(problems("[1]") == ["$: expected an object, got […1 items]"])
        #expect(problems("{\"scene\": ").first?.contains("not valid JSON") == true)
        #expect(problems("{\"layers\": []}") == ["$.layers: expected an array of 1...64 elements, got 0"])
    }

    @Test func validFilesBuildPlayersWithTheirParametersAndBackground() throws {
        let player = try loadSceneFile(
            bytes: Array(
                ##"{"background": "#102030", "layers": [{"scene": "flow"}, {"scene": "ripples", "parameters": {"opacity": 1, "background": [0, 0, 0]}}]}"##
                    .utf8),
            name: "ok.json"
        ) { _ in .none }
        #expect(player.layers.count == 2)
        #expect(player.background == Color(r: 0x10 / 255.0, g: 0x20 / 255.0, b: 0x30 / 255.0))
        let single = try loadSceneFile(bytes: Array(#"{"scene": "waveform"}"#.utf8), name: "w.json") { _ in .none }
        #expect(single.background == WaveformScene.descriptor.defaultSettings().color("background"))
    }

    @Test func imageLoaderIsCalledWithTheFolderAndItsErrorsAreReported() throws {
        var asked: [String] = []
        _ = try loadSceneFile(
            bytes: Array(#"{"scene": "slideshow", "parameters": {"folder": "pics"}}"#.utf8), name: "s.json"
        ) {
            asked.append($0)
            return SceneImages(syntheticImages())
        }
        #expect(asked == ["pics"])
        struct Missing: Error, CustomStringConvertible { var description: String { "no such folder" } }
        do {
            _ = try loadSceneFile(bytes: Array(#"{"layers": [{"scene": "slideshow"}]}"#.utf8), name: "s.json") { _ in
                throw Missing()
            }
            Issue.record("accepted a failing loader")
        } catch {
            #expect(error.problems == ["$.layers[0].parameters.folder: no such folder"])
        }
    }

    @Test func everyParameterDefaultIsAllowedByItsOwnRange() {
        for scene in builtInScenes {
            for parameter in scene.parameters {
                switch (parameter.kind, parameter.defaultValue) {
                case (.number(let range), .number(let n)): #expect(range.contains(n), "\(scene.name).\(parameter.name)")
                case (.integer(let range), .number(let n)):
                    #expect(range.contains(Int(n)), "\(scene.name).\(parameter.name)")
                case (.color, .color), (.bool, .bool), (.text, .text): break
                case (.choice(let options), .text(let word)):
                    #expect(options.contains(word), "\(scene.name).\(parameter.name)")
                default: Issue.record("\(scene.name).\(parameter.name): default of the wrong kind")
                }
            }
        }
        #expect(Color(hex: "#FF950080")!.hexString == "#FF950080")
        #expect(Color(hex: "#007AFF")!.hexString == "#007AFF")
        #expect(Color(hex: "007AFF") == nil)
    }
}

@Suite struct TouchScriptTests {
    @Test func parsesEventsAndLiftsWhereTheFingerWas() throws {
        let script = try parseTouchScript(
            bytes: Array(
                """
                {"format": "touches/1", "events": [
                  {"time": 0.5, "type": "down", "finger": 2, "x": 10, "y": 20},
                  {"time": 0.6, "type": "move", "finger": 2, "x": 12, "y": 21},
                  {"time": 0.7, "type": "up", "finger": 2}]}
                """.utf8), name: "s")
        #expect(
            script.events == [
                TouchEvent(.began, finger: 2, x: 10, y: 20, time: 0.5),
                TouchEvent(.moved, finger: 2, x: 12, y: 21, time: 0.6),
                TouchEvent(.ended, finger: 2, x: 12, y: 21, time: 0.7),
            ])
    }

    @Test func reportsEveryMistake() {
        do {
            _ = try parseTouchScript(
                bytes: Array(
                    """
                    {"events": [
                      {"time": 1, "type": "down", "x": 1},
                      {"time": 0.5, "type": "move", "finger": 1, "x": 1, "y": 2},
                      {"time": 2, "type": "tap", "x": 1, "y": 2, "pressure": 1}]}
                    """.utf8), name: "s")
            Issue.record("accepted a bad script")
        } catch {
            #expect(
                error.problems == [
                    "$.events[0]: missing required member \"y\" (a down needs a position)",
                    "$.events[1].time: events must be in time order; got 0.5 after 1",
                    "$.events[1].type: finger 1 moves but is not down",
                    "$.events[2].pressure: unknown member; allowed here: time, type, finger, x, y",
                    "$.events[2].type: expected one of \"down\", \"move\", \"up\", got \"tap\"",
                ])
        }
    }
}

@Suite struct FrameDifferenceTests {
    @Test func figuresOfAKnownDifference() {
        let a = PixelBuffer(width: 10, height: 10)
        let b = PixelBuffer(width: 10, height: 10)
        for y in 0..<10 {
            for x in 0..<10 {
                a.surface.row(y)[x] = 0xFF10_2030
                b.surface.row(y)[x] = 0x0010_2030  // X byte differs only: ignored
            }
        }
        #expect(
            compareFrames(a, b)
                == {
                    var d = FrameDifference()
                    d.pixels = 100
                    return d
                }())
        #expect(compareFrames(a, b).psnr == .infinity)
        b.surface.row(3)[4] = 0xFF10_2030 + 0x0A_0000  // red +10
        b.surface.row(5)[5] = 0xFF10_2030 - 0x04  // blue −4
        let heat = PixelBuffer(width: 10, height: 10)
        let d = compareFrames(a, b, heatmap: heat)
        #expect(d.maxChannel == 10 && d.differingPixels == 2 && d.channelSum == 14 && d.squaredSum == 116)
        #expect(abs(d.meanChannel - 14.0 / 300) < 1e-12)
        #expect(abs(d.psnr - 10 * log10(255.0 * 255 / (116.0 / 300))) < 1e-9)
        #expect(heat.surface.pixel(x: 4, y: 3) >> 16 & 0xFF > 96)
        #expect(heat.surface.pixel(x: 0, y: 0) >> 16 & 0xFF < 64)
        #expect(d.summary.hasPrefix("max 10, mean 0.0467, 2 pixels differ (2.00 %), PSNR "))
    }

    @Test func manifestRoundTrip() throws {
        let manifest = DumpManifest(
            width: 32, height: 18, fps: 30, command: ["swell", "dump", "a \"b\""],
            frames: [
                .init(index: 3, file: DumpManifest.fileName(frame: 3), time: 0.1, checksum: 0xDEAD_BEEF),
                .init(index: 4, file: DumpManifest.fileName(frame: 4), time: 4.0 / 30, checksum: .max),
            ])
        #expect(manifest.frames[0].file == "frame-000003.raw")
        let parsed = try DumpManifest.parse(bytes: Array(manifest.encoded().utf8), name: "m")
        #expect(parsed == manifest)
        #expect(manifest.encoded().contains("\"stride\": 128"))
    }
}
