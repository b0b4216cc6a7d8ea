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

/// Starts a daemon with a thread per connection; NULL on failure, with why in `error`.
struct MHD_Daemon *swell_httpd_start(const struct swell_httpd_settings *settings,
                                     MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed,
                                     void *context, char *error, size_t error_size);

/// The port the daemon listens on (the one the system chose for port 0).
unsigned short swell_httpd_port(struct MHD_Daemon *daemon);

/// The client's numeric address ("10.0.2.2", "::1"); 0 on success.
int swell_httpd_client_address(struct MHD_Connection *connection, char *out, size_t size);
