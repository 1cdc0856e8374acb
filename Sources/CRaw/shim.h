// LibRaw's C API, the thread-safe build (libraw_r). We use it only to reach a RAW
// file's embedded preview: never a full RAW decode.
#include <libraw/libraw.h>
