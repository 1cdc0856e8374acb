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
    /// Threads that serve the connections, each polling its own share of them.
    unsigned int threads;
};

/// HTTPS: a certificate (chain) and its private key, both PEM, and the GnuTLS
/// priorities the handshake may choose from.
struct curator_web_tls {
    const char *certificate;
    const char *key;
    const char *priorities;
};

/// Starts a server on `listener`, a listening TCP socket (which it then owns and
/// closes when stopped), with a pool of `limits.threads` threads polling their
/// connections with poll(2) (a connection may be suspended while its answer is made
/// elsewhere), strict HTTP parsing and the given limits; HTTPS when `tls` is not NULL (its strings are copied). `handler`
/// answers requests; `completed` is told when each request is over (its context may
/// go). NULL when the server could not start.
struct MHD_Daemon *curator_web_start(int listener, struct curator_web_limits limits, const struct curator_web_tls *tls,
                                     MHD_AccessHandlerCallback handler, void *handler_context,
                                     MHD_RequestCompletedCallback completed, void *completed_context);

/// How many times the header `name` (any case) came in the request.
int curator_web_header_count(struct MHD_Connection *connection, const char *name);

/// The client's address as text (IPv4 or IPv6) into `buffer`; 0, or -1 when the
/// connection has none the server knows.
int curator_web_client_address(struct MHD_Connection *connection, char *buffer, size_t capacity);

/// MHD_SIZE_UNKNOWN, which Swift does not import (a cast macro): a streamed body.
uint64_t curator_web_size_unknown(void);

#endif
