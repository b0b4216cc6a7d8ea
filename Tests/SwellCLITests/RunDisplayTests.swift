import Foundation
import Testing

/// `swell run --display CONNECTOR=FILE` as a user types it: the usage errors come before any
/// device is opened (so they hold on a machine without /dev/dri).
@Suite struct RunDisplayTests {
    @Test func twoScenesForOneOutputAreAUsageError() throws {
        let run = try SwellProcess.run([
            "run", "--display", "HDMI-A-1=menu.json", "--display=hdmi-a-1=ads.json",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("HDMI-A-1 is given 2 scenes (menu.json, ads.json)"), "\(run.stderr)")
    }

    @Test func aDisplayValueWithoutAFileIsAUsageErrorNamingIt() throws {
        let run = try SwellProcess.run(["run", "--display", "Virtual-1"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("'Virtual-1'"), "\(run.stderr)")
    }

    @Test func aSceneBesidesDisplaysIsAUsageError() throws {
        let run = try SwellProcess.run(["run", "ripples", "--display", "Virtual-1=menu.json"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("give no SCENE"), "\(run.stderr)")
    }

    /// `CONNECTOR=FILE` as `swell bench --display` reads it too (memory outputs, no card needed).
    @Test func everyMalformedDisplayValueIsNamedInOneError() throws {
        let run = try SwellProcess.run([
            "bench", "--display", "nothing", "--display", "HDMI A=a.json", "--display", "DP-2=", "--display",
            "=b.json", "--frames", "1",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        for value in ["'nothing' (no '=')", "'HDMI A=a.json'", "'DP-2='", "'=b.json'"] {
            #expect(run.stderr.contains(value), "\(value): \(run.stderr)")
        }
    }

    @Test func aDisplayValueSplitsAtTheFirstEquals() throws {
        // A file name may hold an '=' of its own: the file is 'pages/a=b.json', which does not exist.
        let run = try SwellProcess.run([
            "bench", "--display", "Virtual-2=pages/a=b.json", "--display", "Virtual-1=ripples", "--frames", "1",
        ])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("pages/a=b.json: cannot read"), "\(run.stderr)")
    }

    @Test func displaysWithAnotherOutputKindAreAUsageError() throws {
        let run = try SwellProcess.run(["run", "--display", "Virtual-1=menu.json", "--output", "memory"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--display picks DRM connectors"), "\(run.stderr)")
    }
}

/// `--mode` and `--rotate` for one output of several (`CONNECTOR=VALUE`): the usage errors come
/// before any device is opened.
@Suite struct PerOutputSettingsTests {
    @Test func aRotationForAConnectorNotDrivenListsTheRunsOutputs() throws {
        let run = try SwellProcess.run([
            "run", "--display", "Virtual-1=ripples", "--display", "Virtual-2=wave", "--rotate", "Virtual-3=90",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.contains("Virtual-3 is not one of this run's outputs (Virtual-1, Virtual-2)"), "\(run.stderr)")
    }

    @Test func aBadValueNamesItsConnectorAndTheAllowedValues() throws {
        let run = try SwellProcess.run([
            "run", "--display", "Virtual-1=ripples", "--display", "Virtual-2=wave", "--rotate", "virtual-2=45",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--rotate Virtual-2=…"), "\(run.stderr)")
        #expect(run.stderr.contains("0, 90, 180 or 270"), "\(run.stderr)")
    }

    @Test func oneConnectorGivenTwoModesIsAUsageError() throws {
        let run = try SwellProcess.run([
            "run", "--display", "Virtual-1=ripples", "--display", "Virtual-2=wave",
            "--mode", "Virtual-1=1024x768", "--mode", "Virtual-1=800x600",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--mode is given twice for Virtual-1"), "\(run.stderr)")
    }

    @Test func aPerOutputValueWithoutSeveralOutputsIsAUsageError() throws {
        let run = try SwellProcess.run(["run", "ripples", "--rotate", "HDMI-A-1=90"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("goes with --display or --span"), "\(run.stderr)")
    }

    @Test func aSpanChecksItsPerOutputValuesToo() throws {
        let run = try SwellProcess.run([
            "run", "ripples", "--span", "Virtual-1,Virtual-2", "--mode", "Virtual-9=800x600",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("Virtual-9 is not one of this run's outputs"), "\(run.stderr)")
    }
}
