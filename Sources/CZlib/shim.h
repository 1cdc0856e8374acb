// zlib, for the compressed text chunks (zTXt, compressed iTXt) that KDE's thumbnailer
// writes for values of 40 characters or more.
#include <zlib.h>

// inflateInit is a macro Swift cannot import.
static inline int curator_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}
