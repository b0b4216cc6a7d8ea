// libmicrohttpd (Debian's libmicrohttpd-dev, HTTPS through GnuTLS) for SwellAPI. Swift cannot
// call C's variadic functions, and MHD_start_daemon, MHD_get_daemon_info and
// MHD_get_connection_info are variadic: these wrappers call them with fixed arguments. The rest
// of <microhttpd.h> is used from Swift directly.
#pragma once
#include <stddef.h>
#include <microhttpd.h>

struct swell_httpd_settings {
    /// A numeric IPv4 or IPv6 address ("127.0.0.1", "::", "0.0.0.0").
    const char *address;
    unsigned short port;
    /// PEM text; both NULL: plain HTTP.
    const char *certificate_pem;
    const char *key_pem;
    /// GnuTLS priority string (the TLS versions and ciphers offered).
    const char *tls_priorities;
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_address_limit;
};

/// A daemon and the watchdog that drops connections whose request headers take too long.
struct swell_httpd;

/// Starts a daemon with a thread per connection; NULL on failure, with why in `error`. A
/// connection whose request line and headers are not all in `connection_timeout_seconds` after
/// it opened (or after its last request, kept alive) is shut down: libmicrohttpd's own timeout
/// counts only silence, and a client sending a byte a second is never silent.
struct swell_httpd *swell_httpd_start(const struct swell_httpd_settings *settings,
                                      MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed,
                                      void *context, char *error, size_t error_size);

/// Stops the daemon (waiting for its connections' threads), then the watchdog.
void swell_httpd_stop(struct swell_httpd *server);

/// The port the daemon listens on (the one the system chose for port 0).
unsigned short swell_httpd_port(struct swell_httpd *server);

/// The access handler's first call for a request: its headers are in.
void swell_httpd_headers_in(struct MHD_Connection *connection);

/// A request was answered: the connection's next request (kept alive) has its own deadline.
void swell_httpd_request_done(struct MHD_Connection *connection);

/// The client's numeric address ("10.0.2.2", "::1"); 0 on success.
int swell_httpd_client_address(struct MHD_Connection *connection, char *out, size_t size);
