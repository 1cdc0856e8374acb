// libmicrohttpd: the HTTP/1.1 server of curatord-web (and of systemd-journal-gatewayd).
// Its variadic calls (MHD_start_daemon, MHD_get_daemon_info) are wrapped in CWebShim.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
