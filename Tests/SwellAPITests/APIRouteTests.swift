import SwellAPI
import Testing

@Suite struct APIRouteTests {
    @Test func routesEachResource() throws {
        #expect(try APIRoute.find(method: "GET", path: "/api/v1/status") == .status)
        #expect(try APIRoute.find(method: "POST", path: "/api/v1/show") == .show)
        #expect(try APIRoute.find(method: "POST", path: "/api/v1/display/off") == .display(on: false))
        #expect(try APIRoute.find(method: "POST", path: "/api/v1/display/on") == .display(on: true))
        #expect(
            try APIRoute.find(method: "GET", path: "/api/v1/outputs/HDMI-A-1/screenshot.png")
                == .screenshot(output: "HDMI-A-1"))
        #expect(try APIRoute.find(method: "GET", path: "/api/v1/content/") == .contentList)
        #expect(try APIRoute.find(method: "GET", path: "/api/v1/content") == .contentList)
        #expect(
            try APIRoute.find(method: "PUT", path: "/api/v1/content/text/prices.txt")
                == .content(try ContentPath("text/prices.txt"), method: "PUT"))
        #expect(try APIRoute.find(method: "GET", path: "/") == .page("/"))
        #expect(try APIRoute.find(method: "GET", path: "/app.js") == .page("/app.js"))
        #expect(try APIRoute.find(method: "GET", path: "/").needsToken == false)
        #expect(try APIRoute.find(method: "GET", path: "/api/v1/status").needsToken)
    }

    @Test func refusesUnknownResourcesWith404() {
        for path in ["/api/v2/status", "/api/v1/outputs//screenshot.png", "/api/v1/outputs/a/b.png", "/etc/passwd", ""]
        {
            #expect(throws: Problem.self) { try APIRoute.find(method: "GET", path: path) }
            let status = (try? APIRoute.find(method: "GET", path: path)).map { _ in 0 } ?? problem(path)?.status
            #expect(status == 404, "\(path)")
        }
    }

    @Test func refusesOtherMethodsWith405AndAllow() {
        let cases: [(String, String, String)] = [
            ("DELETE", "/api/v1/status", "GET"), ("GET", "/api/v1/show", "POST"),
            ("PATCH", "/api/v1/content/a.txt", "GET, PUT, DELETE"), ("POST", "/", "GET"),
        ]
        for (method, path, allow) in cases {
            let found = problem(path, method: method)
            #expect(found?.status == 405, "\(method) \(path)")
            #expect(found?.headers.first { $0.name == "Allow" }?.value == allow)
        }
    }

    @Test func contentPathsThatLeaveTheFolderAre400NamingThePath() {
        for path in [
            "/api/v1/content/../tokens.json", "/api/v1/content/a/../../b", "/api/v1/content//etc/passwd",
            "/api/v1/content/.hidden", "/api/v1/content/a//b", "/api/v1/content/a/./b", "/api/v1/content/a\\b",
        ] {
            let found = problem(path, method: "GET")
            #expect(found?.status == 400, "\(path)")
            #expect(found?.field == "path", "\(path)")
        }
    }

    private func problem(_ path: String, method: String = "GET") -> Problem? {
        do {
            _ = try APIRoute.find(method: method, path: path)
            return nil
        } catch {
            return error
        }
    }
}

@Suite struct ContentPathTests {
    @Test func acceptsPlainRelativePaths() throws {
        #expect(try ContentPath("menu.json").parts == ["menu.json"])
        #expect(try ContentPath("text/prices.txt").parts == ["text", "prices.txt"])
        #expect(try ContentPath("a..b/c...json").description == "a..b/c...json")
        #expect(try ContentPath("Photo.JPG").fileExtension == "jpg")
        #expect(try ContentPath("README").fileExtension == "")
    }

    @Test func refusesWhatCouldLeaveOrHide() {
        let refused = [
            "", "/etc/passwd", "..", "a/..", "../a", "a/../b", ".", "./a", "a//b", "a/", ".ssh/id",
            "a/.swell-upload-1-x", "a\u{0}b", "a\\..\\b", String(repeating: "x", count: 256),
            String(repeating: "a/", count: 600) + "b",
        ]
        for text in refused {
            #expect(throws: Problem.self, "\(text.prefix(40))") { try ContentPath(text) }
        }
    }
}
