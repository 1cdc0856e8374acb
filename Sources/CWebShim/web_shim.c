// SPDX-License-Identifier: GPL-2.0-or-later
#include "web_shim.h"

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
