import SwellJSON

/// The management API's routes: which resource a method and path name, decided without touching
/// anything (the fuzz harness drives it with any bytes).
public enum APIRoute: Sendable, Equatable {
    /// The page's static files, served without a token: "/", "/app.js", "/app.css".
    case page(String)
    case status
    case screenshot(output: String)
    case show
    case display(on: Bool)
    case contentList
    /// A file of the content folder, checked (`ContentPath`).
    case content(ContentPath, method: String)

    /// Whether the route needs a token (everything but the page).
    public var needsToken: Bool {
        if case .page = self { return false }
        return true
    }

    /// The route of `method` on `path`, or the problem: 404 for no such resource, 405 (with
    /// Allow) for a method it does not take, 400 for a content path that is not allowed.
    public static func find(method: String, path: String) throws(Problem) -> APIRoute {
        if WebPageFiles.files[path] != nil {
            try allow(method, ["GET"], path)
            return .page(path)
        }
        let prefix = "/api/v1/"
        guard path.hasPrefix(prefix) else { throw Problem.notFound("no page or API resource at \(quoted(path))") }
        let rest = path.dropFirst(prefix.count)
        switch rest {
        case "status":
            try allow(method, ["GET"], path)
            return .status
        case "show":
            try allow(method, ["POST"], path)
            return .show
        case "display/on", "display/off":
            try allow(method, ["POST"], path)
            return .display(on: rest == "display/on")
        case "content", "content/":
            try allow(method, ["GET"], path)
            return .contentList
        default:
            break
        }
        if rest.hasPrefix("content/") {
            try allow(method, ["GET", "PUT", "DELETE"], path)
            return .content(try ContentPath(String(rest.dropFirst("content/".count))), method: method)
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "outputs", parts[2] == "screenshot.png", !parts[1].isEmpty {
            try allow(method, ["GET"], path)
            return .screenshot(output: String(parts[1]))
        }
        throw Problem.notFound("no API resource at \(quoted(path)); see GET /api/v1/status")
    }

    private static func allow(_ method: String, _ allowed: [String], _ path: String) throws(Problem) {
        guard !allowed.contains(method) else { return }
        var problem = Problem(
            status: 405, title: "Method Not Allowed",
            detail: "\(quoted(path)) takes \(allowed.joined(separator: ", ")), not \(quoted(method))")
        problem.headers = [HTTPResponse.Header("Allow", allowed.joined(separator: ", "))]
        throw problem
    }
}

/// A path of the content folder as a request names it: relative, in plain parts. No `..`, `.` or
/// empty part, no part starting with "." (hidden files, and the uploads under way), no NUL or
/// backslash, at most 255 bytes a part and 1024 in all. Where the parts lead (a symbolic link
/// out of the folder) is `ContentFolder`'s check.
public struct ContentPath: Sendable, Equatable, CustomStringConvertible {
    public let parts: [String]

    public init(_ text: String) throws(Problem) {
        func refuse(_ why: String) -> Problem {
            Problem.badRequest("the content path \(quoted(text)) \(why)", field: "path")
        }
        guard !text.isEmpty else { throw refuse("is empty; name a file of the content folder") }
        guard text.utf8.count <= 1024 else { throw refuse("is longer than 1024 bytes") }
        guard !text.hasPrefix("/") else { throw refuse("is absolute; name it relative to the content folder") }
        guard !text.utf8.contains(0), !text.contains("\\") else { throw refuse("holds a NUL or a backslash") }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            if part == ".." { throw refuse("leaves the content folder (\"..\")") }
            if part.isEmpty || part == "." { throw refuse("has an empty or \".\" part") }
            if part.hasPrefix(".") { throw refuse("names a hidden file (a part starting with \".\")") }
            if part.utf8.count > 255 { throw refuse("has a part longer than 255 bytes") }
        }
        self.parts = parts
    }

    public var description: String { parts.joined(separator: "/") }
    public var name: String { parts[parts.count - 1] }
    /// The file name's extension, lowercased ("json"; "" without one).
    public var fileExtension: String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}

/// `text` in quotes, with control characters escaped (a request's bytes, quoted in an answer).
func quoted(_ text: String) -> String {
    let limited = text.count > 200 ? String(text.prefix(200)) + "…" : text
    return jsonString(limited)
}
