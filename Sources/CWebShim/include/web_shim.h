// SPDX-License-Identifier: GPL-2.0-or-later
// The libmicrohttpd calls curatord-web makes that Swift cannot: MHD_start_daemon and
// MHD_get_daemon_info are variadic. Plain arguments in, the library's values out.
#ifndef CURATOR_WEB_SHIM_H
#define CURATOR_WEB_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <microhttpd.h>

/// The limits the server enforces before any of our code sees a request.
struct curator_web_limits {
    /// Connections served at once; one more is accepted and closed at once.
    unsigned int connections;
    /// Seconds a connection may go without sending or receiving a byte.
    unsigned int timeout_seconds;
    /// Bytes of a connection's request line, headers and buffers (MHD's memory pool).
    size_t connection_memory;
};

/// Starts a server on `listener`, a listening TCP socket (which it then owns and
/// closes when stopped), with a thread per connection, strict HTTP parsing and the
/// given limits. `handler` answers requests; `completed` is told when each request is
/// over (its context may go). NULL when the server could not start.
struct MHD_Daemon *curator_web_start(int listener, struct curator_web_limits limits,
                                     MHD_AccessHandlerCallback handler, void *handler_context,
                                     MHD_RequestCompletedCallback completed, void *completed_context);

/// MHD_SIZE_UNKNOWN, which Swift does not import (a cast macro): a streamed body.
uint64_t curator_web_size_unknown(void);

/// The address a request came from (the TCP peer), as text, into `out`; empty
/// when there is none. MHD_get_connection_info is variadic.
void curator_web_client_address(struct MHD_Connection *connection, char *out, size_t size);

#endif
