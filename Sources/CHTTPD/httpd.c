#include "CHTTPD.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

// MHD's messages while starting go to the caller's error text; later ones (a client's failed
// TLS handshake, a timeout) are dropped: the API logs what it decides itself.
static __thread char *start_error;
static __thread size_t start_error_size;

static void log_start_error(void *context, const char *format, va_list arguments) {
    (void)context;
    if (start_error == NULL || start_error_size == 0) return;
    vsnprintf(start_error, start_error_size, format, arguments);
    size_t length = strlen(start_error);
    while (length > 0 && (start_error[length - 1] == '\n' || start_error[length - 1] == '.')) start_error[--length] = 0;
}

struct MHD_Daemon *swell_httpd_start(const struct swell_httpd_settings *settings,
                                     MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed,
                                     void *context, char *error, size_t error_size) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *address;
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO |
                         MHD_USE_ERROR_LOG;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, settings->address, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(settings->port);
        address = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, settings->address, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(settings->port);
        address = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(error, error_size, "%s is not a numeric IPv4 or IPv6 address", settings->address);
        return NULL;
    }
    int tls = settings->certificate_pem != NULL && settings->key_pem != NULL;
    if (tls) flags |= MHD_USE_TLS;
    if (error_size > 0) error[0] = 0;
    start_error = error;
    start_error_size = error_size;
    errno = 0;
    struct MHD_Daemon *daemon;
    if (tls) {
        daemon = MHD_start_daemon(
            flags, settings->port, NULL, NULL, handler, context, MHD_OPTION_SOCK_ADDR, address,
            MHD_OPTION_EXTERNAL_LOGGER, log_start_error, NULL, MHD_OPTION_NOTIFY_COMPLETED, completed, context,
            MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds, MHD_OPTION_CONNECTION_LIMIT,
            settings->connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_address_limit,
            MHD_OPTION_HTTPS_MEM_CERT, settings->certificate_pem, MHD_OPTION_HTTPS_MEM_KEY, settings->key_pem,
            MHD_OPTION_HTTPS_PRIORITIES, settings->tls_priorities, MHD_OPTION_END);
    } else {
        daemon = MHD_start_daemon(
            flags, settings->port, NULL, NULL, handler, context, MHD_OPTION_SOCK_ADDR, address,
            MHD_OPTION_EXTERNAL_LOGGER, log_start_error, NULL, MHD_OPTION_NOTIFY_COMPLETED, completed, context,
            MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds, MHD_OPTION_CONNECTION_LIMIT,
            settings->connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_address_limit,
            MHD_OPTION_END);
    }
    int saved = errno;
    start_error = NULL;
    start_error_size = 0;
    if (daemon == NULL && error_size > 0 && error[0] == 0)
        snprintf(error, error_size, "%s", saved ? strerror(saved) : "libmicrohttpd refused the settings");
    return daemon;
}

unsigned short swell_httpd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int swell_httpd_client_address(struct MHD_Connection *connection, char *out, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *bytes;
    if (address->sa_family == AF_INET)
        bytes = &((const struct sockaddr_in *)address)->sin_addr;
    else if (address->sa_family == AF_INET6)
        bytes = &((const struct sockaddr_in6 *)address)->sin6_addr;
    else
        return -1;
    return inet_ntop(address->sa_family, bytes, out, (socklen_t)size) == NULL ? -1 : 0;
}
