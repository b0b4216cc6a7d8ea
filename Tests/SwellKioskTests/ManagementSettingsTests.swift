import SwellPlayer
import Testing

/// The management API's settings: `--api ADDRESS:PORT` and a kiosk file's `"api"`.
@Suite struct ManagementSettingsTests {
    @Test func listenAddressesAreNumericWithAPort() {
        #expect(ManagementSettings.listenAddress("127.0.0.1:8080")! == ("127.0.0.1", 8080))
        #expect(ManagementSettings.listenAddress("0.0.0.0:8443")! == ("0.0.0.0", 8443))
        #expect(ManagementSettings.listenAddress("[::]:8443")! == ("::", 8443))
        #expect(ManagementSettings.listenAddress("[::1]:1")! == ("::1", 1))
        for wrong in [
            "localhost:80", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:65536", "1.2.3:80", "::1:80", "256.1.1.1:80", ":80",
        ] {
            #expect(ManagementSettings.listenAddress(wrong) == nil, "\(wrong)")
        }
    }

    @Test func httpsUnlessLoopbackOrAskedFor() {
        var settings = ManagementSettings(address: "127.0.0.1", port: 8080, tokens: "t.json")
        #expect(settings.isLoopback && !settings.usesTLS)
        settings.address = "::1"
        #expect(!settings.usesTLS)
        settings.address = "0.0.0.0"
        #expect(settings.usesTLS)
        settings.plainHTTP = true
        #expect(!settings.usesTLS)
    }

    @Test func theKioskFilesSection() throws {
        let plan = try KioskFileTests.parse(
            """
            {"format": "kiosk/1", "outputs": [{"content": "menu.json"}],
             "api": {"listen": "0.0.0.0:8443", "tokens": "tokens.json", "certificate": "/etc/ssl/kiosk.pem",
                     "key": "kiosk.key", "uploadLimit": 16}}
            """)
        let api = try #require(plan.api)
        #expect(api.address == "0.0.0.0" && api.port == 8443)
        #expect(api.tokens == "/etc/swell/tokens.json", "relative to the kiosk file")
        #expect(api.certificate == "/etc/ssl/kiosk.pem" && api.key == "/etc/swell/kiosk.key")
        #expect(api.uploadLimitMiB == 16 && !api.plainHTTP && api.usesTLS)
        #expect(try KioskFileTests.parse(#"{"format": "kiosk/1", "outputs": [{"content": "menu.json"}]}"#).api == nil)
        let problems = KioskFileTests.problems(
            """
            {"format": "kiosk/1", "outputs": [{"content": "menu.json"}],
             "api": {"listen": "kiosk:80", "certificate": "a.pem", "port": 1}}
            """)
        #expect(problems.contains { $0.hasPrefix("$.api.listen: expected a numeric ADDRESS:PORT") })
        #expect(problems.contains { $0.contains("missing required member \"tokens\"") })
        #expect(problems.contains { $0.contains("\"certificate\" and \"key\" together") })
        #expect(problems.contains { $0.contains("port") })
    }
}
