import Testing

@testable import SwellAPI

@Suite struct APIRouteTests {
    @Test func routesTheAPI() throws {
        #expect(try APIRoute.find(method: "GET", path: "/api/v1/status") == .status)
        #expect(try APIRoute.find(method: "POST", path: "/api/v1/show") == .show)
        #expect(try APIRoute.find(method: "POST", path: "/api/v1/display/off") == .display(on: false))
        #expect(
            try APIRoute.find(method: "GET", path: "/api/v1/outputs/HDMI-A-1/screenshot.png")
                == .screenshot(output: "HDMI-A-1"))
        #expect(try APIRoute.find(method: "GET", path: "/api/v1/content/") == .contentList)
        #expect(
            try APIRoute.find(method: "PUT", path: "/api/v1/content/text/prices.txt")
                == .content(try ContentPath("text/prices.txt"), method: "PUT"))
        #expect(try APIRoute.find(method: "GET", path: "/") == .page("/"))
    }
}
