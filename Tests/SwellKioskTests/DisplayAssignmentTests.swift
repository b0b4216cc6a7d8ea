import SwellKiosk
import Testing

@Test func aDisplayValueSplitsAtTheFirstEquals() throws {
    let plain = try DisplayAssignment(parsing: "HDMI-A-1=menu.json")
    #expect(plain == DisplayAssignment(connectorName: "HDMI-A-1", file: "menu.json"))
    // A file name may hold an '=' of its own.
    let odd = try DisplayAssignment(parsing: "Virtual-2=pages/a=b.json")
    #expect(odd.connectorName == "Virtual-2")
    #expect(odd.file == "pages/a=b.json")
}

@Test func malformedDisplayValuesAreUsageErrorsNamingTheValue() {
    for text in ["HDMI-A-1", "=menu.json", "HDMI-A-1=", "HDMI A=menu.json", "A,B=menu.json"] {
        do {
            _ = try DisplayAssignment(parsing: text)
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.contains("'\(text)'"), "\(error.message)")
        }
    }
}

@Test func twoScenesForOneOutputAreRefusedWhateverTheCase() {
    do {
        _ = try DisplayAssignment.parseAll(["HDMI-A-1=menu.json", "HDMI-A-2=ads.json", "hdmi-a-1=other.json"])
        Issue.record("two scenes for HDMI-A-1 were accepted")
    } catch {
        #expect(error.kind == .usage)
        #expect(error.message.contains("menu.json, other.json"), "\(error.message)")
        #expect(!error.message.contains("ads.json"), "\(error.message)")
    }
}

@Test func everyProblemOfTheDisplayValuesIsReportedInOneError() {
    do {
        _ = try DisplayAssignment.parseAll(["nothing", "DP-1=a.json", "DP-1=b.json", "DP-2="])
        Issue.record("accepted")
    } catch {
        let lines = error.message.split(separator: "\n")
        #expect(lines.count == 3, "\(error.message)")
    }
}

@Test func distinctOutputsParseInTheirOrder() throws {
    let parsed = try DisplayAssignment.parseAll(["Virtual-2=ads.json", "Virtual-1=menu.json"])
    #expect(parsed.map(\.connectorName) == ["Virtual-2", "Virtual-1"])
    #expect(parsed.map(\.file) == ["ads.json", "menu.json"])
}

@Test func anUnknownConnectorListsTheConnectorsTheCardHas() throws {
    let connectors = [(name: "Virtual-1", status: "connected"), (name: "Virtual-2", status: "disconnected")]
    try DisplayAssignment.check(
        [DisplayAssignment(connectorName: "virtual-2", file: "a.json")], cardPath: "/dev/dri/card0",
        connectors: connectors)
    do {
        try DisplayAssignment.check(
            [
                DisplayAssignment(connectorName: "Virtual-1", file: "a.json"),
                DisplayAssignment(connectorName: "HDMI-A-1", file: "b.json"),
            ], cardPath: "/dev/dri/card0", connectors: connectors)
        Issue.record("HDMI-A-1 was accepted")
    } catch {
        #expect(error.kind == .noConnector)
        #expect(error.message.contains("no connector named HDMI-A-1 (--display HDMI-A-1=b.json)"), "\(error.message)")
        #expect(error.message.contains("Virtual-1 (connected), Virtual-2 (disconnected)"), "\(error.message)")
        #expect(!error.message.contains("named Virtual-1"))
    }
}
