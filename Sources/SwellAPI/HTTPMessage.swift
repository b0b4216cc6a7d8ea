/// A request as the server hands it to its service once the headers are in.
public struct HTTPRequestHead: Sendable {
    public var method: String
    /// The path, percent-decoded by libmicrohttpd, without the query.
    public var path: String
    /// The client's numeric address.
    public var client: String
    /// The request's headers (lookup ignores case).
    public var headers: [(name: String, value: String)]

    public init(method: String, path: String, client: String, headers: [(name: String, value: String)]) {
        self.method = method
        self.path = path
        self.client = client
        self.headers = headers
    }

    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// The body's announced length (nil: none announced, or chunked).
    public var contentLength: Int? { header("Content-Length").flatMap { Int($0) } }
}

/// A response: status, headers and the whole body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [Header]
    public var body: [UInt8]

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(status: Int, contentType: String, body: [UInt8], headers: [Header] = []) {
        self.status = status
        self.headers = [Header("Content-Type", contentType)] + headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// A JSON body.
    public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array(text.utf8))
    }

    /// No body (204).
    public static var noContent: HTTPResponse { HTTPResponse(status: 204, contentType: "text/plain", body: []) }
}

/// What the service does with a request whose headers are in.
public enum HTTPBegin {
    /// Answer now, reading no body.
    case respond(HTTPResponse)
    /// Read the body into `sink` (at most `limit` bytes: past it the connection is closed).
    case read(any HTTPBodySink, limit: Int)
}

/// Takes a request's body as it arrives, on the connection's thread.
public protocol HTTPBodySink: AnyObject {
    /// One piece of the body; a response ends the request early (an error: the rest is not read).
    func write(_ bytes: UnsafeRawBufferPointer) -> HTTPResponse?
    /// The whole body is in: the answer.
    func finish() -> HTTPResponse
    /// The connection ended before the body was whole (a client gone, a timeout): undo.
    func abandon()
}

/// What an HTTP server serves. Called on the connection's own thread: several at once.
public protocol HTTPService: AnyObject, Sendable {
    func begin(_ request: HTTPRequestHead) -> HTTPBegin
}

/// A body gathered in memory (JSON requests), then handed to `answer`.
public final class MemoryBodySink: HTTPBodySink {
    private var bytes: [UInt8] = []
    private let answer: ([UInt8]) -> HTTPResponse

    public init(_ answer: @escaping ([UInt8]) -> HTTPResponse) { self.answer = answer }

    public func write(_ chunk: UnsafeRawBufferPointer) -> HTTPResponse? {
        bytes.append(contentsOf: chunk)
        return nil
    }

    public func finish() -> HTTPResponse { answer(bytes) }
    public func abandon() {}
}
