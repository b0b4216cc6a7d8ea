import CHTTPD
import SwellSystem

/// Where and how an `HTTPServer` listens.
public struct HTTPServerSettings: Sendable, Equatable {
    /// A numeric IPv4 or IPv6 address.
    public var address: String
    /// 0: one the system picks (`HTTPServer.port` says which).
    public var port: UInt16
    /// PEM certificate chain and key; nil: plain HTTP.
    public var tls: TLSIdentity?
    /// Seconds a connection may sit idle (a client sending a byte a second is idle between them):
    /// then it is closed.
    public var connectionTimeout: UInt32 = 10
    public var connectionLimit: UInt32 = 128
    public var perAddressLimit: UInt32 = 64

    /// TLS 1.2 and 1.3 only (GnuTLS's priority string), with the server's cipher order.
    public static let tlsPriorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:%SERVER_PRECEDENCE"

    public init(address: String, port: UInt16, tls: TLSIdentity?) {
        self.address = address
        self.port = port
        self.tls = tls
    }
}

/// A server certificate chain and its private key, as PEM text.
public struct TLSIdentity: Sendable, Equatable {
    public var certificate: String
    public var key: String
    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}

public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An HTTP/1.1 server (libmicrohttpd) with a thread per connection, beside whatever the process
/// does on its own threads: a slow client or a slow answer holds only its own connection.
/// Requests go to `service`; every response carries headers that keep a browser from sniffing,
/// framing or caching it.
public final class HTTPServer: @unchecked Sendable {
    public let service: any HTTPService
    /// The port it listens on.
    public private(set) var port: UInt16 = 0
    /// Seconds a request's headers may take, and a body may trickle before its rate counts.
    private(set) var connectionTimeout = 10.0
    private var daemon: OpaquePointer?
    /// A body slower than this, after its first `connectionTimeout` seconds, closes the connection.
    static let minimumBodyRate = 1024.0

    public init(_ settings: HTTPServerSettings, service: any HTTPService) throws(HTTPServerError) {
        self.service = service
        var error = [CChar](repeating: 0, count: 512)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = settings.address.withCString { address in
            withOptionalCString(settings.tls?.certificate) { certificate in
                withOptionalCString(settings.tls?.key) { key in
                    HTTPServerSettings.tlsPriorities.withCString { priorities in
                        var raw = swell_httpd_settings(
                            address: address, port: settings.port, certificate_pem: certificate, key_pem: key,
                            tls_priorities: priorities, connection_timeout_seconds: settings.connectionTimeout,
                            connection_limit: settings.connectionLimit, per_address_limit: settings.perAddressLimit)
                        return swell_httpd_start(&raw, accessHandler, completedHandler, context, &error, error.count)
                    }
                }
            }
        }
        guard let started else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw HTTPServerError("cannot listen on \(hostPort(settings.address, settings.port)): \(reason)")
        }
        daemon = started
        port = swell_httpd_port(started)
        connectionTimeout = Double(settings.connectionTimeout)
    }

    deinit { stop() }

    /// Closes the listening socket and every connection (waits for their threads).
    public func stop() {
        guard let daemon else { return }
        self.daemon = nil
        swell_httpd_stop(daemon)
    }
}

/// "127.0.0.1:8443", "[::1]:8443".
public func hostPort(_ address: String, _ port: UInt16) -> String {
    address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// One request's state between libmicrohttpd's calls.
private final class RequestState {
    var sink: (any HTTPBodySink)?
    var limit = 0
    var received = 0
    /// An answer decided before the body was whole (too large, a write failed).
    var early: HTTPResponse?
    var finished = false
    var bodyStart = 0.0
    var timeout = 10.0
}

/// The headers every answer carries.
private let commonHeaders = [
    HTTPResponse.Header("X-Content-Type-Options", "nosniff"),
    HTTPResponse.Header("Cache-Control", "no-store"),
    HTTPResponse.Header("X-Frame-Options", "DENY"),
    HTTPResponse.Header("Referrer-Policy", "no-referrer"),
    HTTPResponse.Header(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"),
]

private func queue(_ response: HTTPResponse, on connection: OpaquePointer?) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let made else { return MHD_Result.NO }
    for header in response.headers + commonHeaders { _ = MHD_add_response_header(made, header.name, header.value) }
    let result = MHD_queue_response(connection, UInt32(response.status), made)
    MHD_destroy_response(made)
    return result
}

private func head(of connection: OpaquePointer?, method: String, path: String) -> HTTPRequestHead {
    var client = [CChar](repeating: 0, count: 64)
    if swell_httpd_client_address(connection, &client, client.count) != 0 { client[0] = 0 }
    final class Headers { var list: [(name: String, value: String)] = [] }
    let headers = Headers()
    _ = MHD_get_connection_values(
        connection, .HEADER_KIND,
        { context, _, key, value in
            guard let context, let key else { return .YES }
            let headers = Unmanaged<Headers>.fromOpaque(context).takeUnretainedValue()
            headers.list.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return .YES
        }, Unmanaged.passUnretained(headers).toOpaque())
    let address = String(decoding: client.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return HTTPRequestHead(method: method, path: path, client: address, headers: headers.list)
}

private let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let context, let requestContext, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    guard let stored = requestContext.pointee else {
        // The headers are in: the service decides.
        swell_httpd_headers_in(connection)
        let state = RequestState()
        state.timeout = server.connectionTimeout
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        let request = head(
            of: connection, method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/")
        switch server.service.begin(request) {
        case .respond(let response):
            state.finished = true
            return queue(response, on: connection)
        case .read(let sink, let limit):
            if let length = request.contentLength, length > limit {
                state.finished = true
                sink.abandon()
                return queue(tooLarge(limit), on: connection)
            }
            state.sink = sink
            state.limit = limit
            state.bodyStart = monotonicSeconds()
            return .YES
        }
    }
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
    guard let sink = state.sink, !state.finished else { return MHD_Result.NO }
    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        uploadSize.pointee = 0
        guard state.early == nil else { return .YES }  // the rest is read and dropped
        state.received += count
        // A body that trickles (a byte a second) holds a connection: closed, like slow headers.
        let elapsed = monotonicSeconds() - state.bodyStart
        if elapsed > state.timeout, Double(state.received) / elapsed < HTTPServer.minimumBodyRate {
            sink.abandon()
            state.finished = true
            return MHD_Result.NO
        }
        if state.received > state.limit {
            sink.abandon()
            state.early = tooLarge(state.limit)
        } else if let answer = sink.write(UnsafeRawBufferPointer(start: uploadData, count: count)) {
            state.early = answer
        }
        return .YES
    }
    state.finished = true
    return queue(state.early ?? sink.finish(), on: connection)
}

private let completedHandler: MHD_RequestCompletedCallback = { _, connection, requestContext, _ in
    swell_httpd_request_done(connection)
    guard let requestContext, let stored = requestContext.pointee else { return }
    requestContext.pointee = nil
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeRetainedValue()
    // Cut off before the whole body came (or before the answer was made): nothing may stay.
    if !state.finished, state.early == nil { state.sink?.abandon() }
}

private func tooLarge(_ limit: Int) -> HTTPResponse {
    Problem(status: 413, title: "Payload Too Large", detail: "the body is larger than \(limit) bytes, the limit")
        .response
}
