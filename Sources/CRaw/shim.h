// LibRaw's C API, the thread-safe build (libraw_r). We use it only to reach a RAW
// file's embedded preview: never a full RAW decode.
#include <libraw/libraw.h>

// Fields Swift reaches awkwardly through the large libraw_data_t, and the flexible
// array at the end of a processed image.
static inline int curator_raw_flip(const libraw_data_t *raw) { return raw->sizes.flip; }
static inline int curator_raw_width(const libraw_data_t *raw) { return raw->sizes.width; }
static inline int curator_raw_height(const libraw_data_t *raw) { return raw->sizes.height; }
static inline const unsigned char *curator_raw_image_bytes(const libraw_processed_image_t *image) { return image->data; }
