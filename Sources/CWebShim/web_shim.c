// SPDX-License-Identifier: GPL-2.0-or-later
#include "web_shim.h"

#include <arpa/inet.h>
#include <stdatomic.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

// The library's own limit, in a thread pool, stops accepting once reached: the
// connections past it wait in the listen backlog, and a client behind many idle
// ones waits for all of them to time out. So the library's limit is set far above
// ours, and ours is kept here: a connection past it is accepted and closed at once
// (the accept policy refuses it), which frees the backlog for the next.
struct curator_web_gate {
    unsigned int limit;
    _Atomic unsigned int open;
};

static enum MHD_Result gate_accept(void *cls, const struct sockaddr *address, socklen_t length) {
    (void)address;
    (void)length;
    struct curator_web_gate *gate = cls;
    return atomic_load(&gate->open) < gate->limit ? MHD_YES : MHD_NO;
}

static void gate_count(void *cls, struct MHD_Connection *connection, void **socket_context,
                       enum MHD_ConnectionNotificationCode code) {
    (void)socket_context;
    struct curator_web_gate *gate = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        atomic_fetch_add(&gate->open, 1);
        // An event is a few small writes: without this, Nagle may hold each behind
        // the last one's ACK, which a client is free to delay.
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        int on = 1;
        if (info != NULL) (void)setsockopt(info->connect_fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        atomic_fetch_sub(&gate->open, 1);
    }
}

struct MHD_Daemon *curator_web_start(int listener, struct curator_web_limits limits, const struct curator_web_tls *tls,
                                     MHD_AccessHandlerCallback handler, void *handler_context,
                                     MHD_RequestCompletedCallback completed, void *completed_context) {
    // A few threads poll(2) every connection (the library's epoll mode keeps a garbled
    // request open until its timeout, poll's closes it at once): what waits (on the daemon, on events) is
    // done on threads of the gateway's own while its connection is suspended, so it
    // holds no one else's. No MHD_USE_ERROR_LOG: the library's messages can quote a
    // request line, which may carry the secret.
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME;
    // Lives as long as the server, which lives as long as the process.
    struct curator_web_gate *gate = calloc(1, sizeof *gate);
    if (gate == NULL) return NULL;
    gate->limit = limits.connections;
    unsigned int accepted = limits.connections + 4096;
    if (tls == NULL) {
        return MHD_start_daemon(flags, 0, gate_accept, gate, handler, handler_context,
                                MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listener,
                                MHD_OPTION_NOTIFY_CONNECTION, gate_count, gate,
                                MHD_OPTION_CONNECTION_LIMIT, accepted,
                                MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
                                MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.connection_memory,
                                MHD_OPTION_THREAD_POOL_SIZE, limits.threads,
                                MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                                MHD_OPTION_END);
    }
    // The library reads these when the server starts and when a handshake needs them:
    // copies that live as long as the process.
    char *certificate = strdup(tls->certificate);
    char *key = strdup(tls->key);
    char *priorities = strdup(tls->priorities);
    if (certificate == NULL || key == NULL || priorities == NULL) return NULL;
    return MHD_start_daemon(flags | MHD_USE_TLS, 0, gate_accept, gate, handler, handler_context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listener,
                            MHD_OPTION_NOTIFY_CONNECTION, gate_count, gate,
                            MHD_OPTION_CONNECTION_LIMIT, accepted,
                            MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.connection_memory,
                            MHD_OPTION_THREAD_POOL_SIZE, limits.threads,
                            MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_HTTPS_MEM_CERT, certificate,
                            MHD_OPTION_HTTPS_MEM_KEY, key,
                            MHD_OPTION_HTTPS_PRIORITIES, priorities,
                            MHD_OPTION_END);
}

uint64_t curator_web_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

int curator_web_client_address(struct MHD_Connection *connection, char *buffer, size_t capacity) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *raw;
    if (address->sa_family == AF_INET) raw = &((const struct sockaddr_in *)address)->sin_addr;
    else if (address->sa_family == AF_INET6) raw = &((const struct sockaddr_in6 *)address)->sin6_addr;
    else return -1;
    return inet_ntop(address->sa_family, raw, buffer, (socklen_t)capacity) == NULL ? -1 : 0;
}

struct curator_header_count {
    const char *name;
    int count;
};

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    (void)value;
    struct curator_header_count *counting = cls;
    if (key != NULL && strcasecmp(key, counting->name) == 0) counting->count++;
    return MHD_YES;
}

int curator_web_header_count(struct MHD_Connection *connection, const char *name) {
    struct curator_header_count counting = { .name = name, .count = 0 };
    MHD_get_connection_values(connection, MHD_HEADER_KIND, count_header, &counting);
    return counting.count;
}
