// SPDX-License-Identifier: GPL-2.0-or-later
#include "web_shim.h"

#include <arpa/inet.h>
#include <netinet/in.h>

struct MHD_Daemon *curator_web_start(int listener, struct curator_web_limits limits,
                                     MHD_AccessHandlerCallback handler, void *handler_context,
                                     MHD_RequestCompletedCallback completed, void *completed_context) {
    // A thread per connection: a request that waits on the daemon, or an event stream
    // whose reader is slow, holds its own thread and nobody else's. No MHD_USE_ERROR_LOG:
    // the library's messages can quote a request line, which may carry the secret.
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listener,
                            MHD_OPTION_CONNECTION_LIMIT, limits.connections,
                            MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.connection_memory,
                            MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_END);
}

uint64_t curator_web_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

void curator_web_client_address(struct MHD_Connection *connection, char *out, size_t size) {
    if (size == 0) return;
    out[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    const void *raw = NULL;
    if (address->sa_family == AF_INET) raw = &((const struct sockaddr_in *)address)->sin_addr;
    if (address->sa_family == AF_INET6) raw = &((const struct sockaddr_in6 *)address)->sin6_addr;
    if (raw == NULL || inet_ntop(address->sa_family, raw, out, (socklen_t)size) == NULL) out[0] = 0;
}
