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

    @Test func displaysWithAnotherOutputKindAreAUsageError() throws {
        let run = try SwellProcess.run(["run", "--display", "Virtual-1=menu.json", "--output", "memory"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--display picks DRM connectors"), "\(run.stderr)")
    }
}
