/// The request-parsing parts of the API — routing, content paths, JSON bodies — on any bytes,
/// without a server, a socket or a thread. It exists for scripts/fuzz's libFuzzer harness, which
/// links the modules' objects and reaches only what they make public (the display body's parser
/// is internal); the kiosk never calls it.
public enum APIFuzzing {
    public static func handle(method: String, path: String, body: [UInt8]) {
        _ = answer { () throws(Problem) in try APIRoute.find(method: method, path: path) }
        _ = answer { () throws(Problem) in try ContentPath(path) }
        _ = answer { () throws(Problem) in try ShowRequest(json: body) }
        _ = answer { () throws(Problem) in try displayOutput(json: body) }
    }

    /// The value, or the problem's answer written out (a request's bytes quoted in JSON).
    private static func answer<T>(_ parse: () throws(Problem) -> T) -> T? {
        do {
            return try parse()
        } catch {
            let response = error.response
            precondition(response.status == error.status && !response.body.isEmpty)
            return nil
        }
    }
}
