#include "CHTTPD.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/// One open connection, while its request headers are awaited.
struct swell_connection {
    struct swell_connection *previous, *next;
    struct swell_httpd *server;
    int fd;
    double since;
    int waiting;
};

struct swell_httpd {
    struct MHD_Daemon *daemon;
    pthread_t watchdog;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stopping;
    double deadline;
    struct swell_connection *connections;
};

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void note_connection(void *context, struct MHD_Connection *connection, void **socket_context,
                            enum MHD_ConnectionNotificationCode code) {
    struct swell_httpd *server = context;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        struct swell_connection *entry = calloc(1, sizeof *entry);
        if (entry == NULL || info == NULL) {
            free(entry);
            return;
        }
        entry->server = server;
        entry->fd = info->connect_fd;
        entry->since = monotonic_seconds();
        entry->waiting = 1;
        pthread_mutex_lock(&server->lock);
        entry->next = server->connections;
        if (server->connections) server->connections->previous = entry;
        server->connections = entry;
        pthread_mutex_unlock(&server->lock);
        *socket_context = entry;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context != NULL) {
        struct swell_connection *entry = *socket_context;
        pthread_mutex_lock(&server->lock);
        if (entry->previous) entry->previous->next = entry->next;
        else server->connections = entry->next;
        if (entry->next) entry->next->previous = entry->previous;
        pthread_mutex_unlock(&server->lock);
        free(entry);
        *socket_context = NULL;
    }
}

/// Shuts down (not closes: libmicrohttpd still owns the descriptor) each connection past its
/// deadline; its thread then sees the end of the stream and closes it.
static void *watch_connections(void *context) {
    struct swell_httpd *server = context;
    pthread_mutex_lock(&server->lock);
    while (!server->stopping) {
        double now = monotonic_seconds();
        for (struct swell_connection *entry = server->connections; entry; entry = entry->next) {
            if (entry->waiting && now - entry->since > server->deadline) {
                shutdown(entry->fd, SHUT_RDWR);
                entry->waiting = 0;
            }
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 250 * 1000 * 1000;
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        pthread_cond_timedwait(&server->wake, &server->lock, &until);
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

static struct swell_connection *entry_of(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

void swell_httpd_headers_in(struct MHD_Connection *connection) {
    // A connection's thread yields to the kiosk's render threads (nice 10): on a box of two
    // cores, fifty clients encoding screenshots must not take the frame's time.
    static __thread int lowered;
    if (!lowered) {
        setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
        lowered = 1;
    }
    struct swell_connection *entry = entry_of(connection);
    if (entry == NULL) return;
    pthread_mutex_lock(&entry->server->lock);
    entry->waiting = 0;
    pthread_mutex_unlock(&entry->server->lock);
}

void swell_httpd_request_done(struct MHD_Connection *connection) {
    struct swell_connection *entry = entry_of(connection);
    if (entry == NULL) return;
    pthread_mutex_lock(&entry->server->lock);
    entry->since = monotonic_seconds();
    entry->waiting = 1;
    pthread_mutex_unlock(&entry->server->lock);
}

/// "%00" decoded would cut the path short at a NUL (the rest unseen by every check): it becomes
/// a backslash, which the API refuses in a path.
static size_t unescape_without_nul(void *context, struct MHD_Connection *connection, char *text) {
    (void)context;
    (void)connection;
    for (char *at = strstr(text, "%00"); at != NULL; at = strstr(at + 3, "%00")) memcpy(at, "%5C", 3);
    return MHD_http_unescape(text);
}

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

struct swell_httpd *swell_httpd_start(const struct swell_httpd_settings *settings,
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
    struct swell_httpd *server = calloc(1, sizeof *server);
    if (server == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    server->deadline = settings->connection_timeout_seconds;
    pthread_mutex_init(&server->lock, NULL);
    pthread_cond_init(&server->wake, NULL);
    int tls = settings->certificate_pem != NULL && settings->key_pem != NULL;
    if (tls) flags |= MHD_USE_TLS;
    if (error_size > 0) error[0] = 0;
    start_error = error;
    start_error_size = error_size;
    errno = 0;
    // HTTPS's options, or none (the array ends at once).
    struct MHD_OptionItem tls_options[] = {
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)settings->certificate_pem},
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)settings->key_pem},
        {MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)settings->tls_priorities},
        {MHD_OPTION_END, 0, NULL},
    };
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, settings->port, NULL, NULL, handler, context, MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_EXTERNAL_LOGGER, log_start_error, NULL, MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_NOTIFY_CONNECTION, note_connection, server, MHD_OPTION_UNESCAPE_CALLBACK, unescape_without_nul,
        NULL, MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds, MHD_OPTION_CONNECTION_LIMIT,
        settings->connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_address_limit,
        MHD_OPTION_ARRAY, tls ? tls_options : tls_options + 3, MHD_OPTION_END);
    int saved = errno;
    start_error = NULL;
    start_error_size = 0;
    if (daemon == NULL) {
        if (error_size > 0 && error[0] == 0)
            snprintf(error, error_size, "%s", saved ? strerror(saved) : "libmicrohttpd refused the settings");
        pthread_mutex_destroy(&server->lock);
        pthread_cond_destroy(&server->wake);
        free(server);
        return NULL;
    }
    server->daemon = daemon;
    if (pthread_create(&server->watchdog, NULL, watch_connections, server) != 0) {
        MHD_stop_daemon(daemon);
        snprintf(error, error_size, "cannot start the connection watchdog");
        free(server);
        return NULL;
    }
    return server;
}

void swell_httpd_stop(struct swell_httpd *server) {
    MHD_stop_daemon(server->daemon);
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_cond_signal(&server->wake);
    pthread_mutex_unlock(&server->lock);
    pthread_join(server->watchdog, NULL);
    pthread_mutex_destroy(&server->lock);
    pthread_cond_destroy(&server->wake);
    free(server);
}

unsigned short swell_httpd_port(struct swell_httpd *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
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
