// libvips (libvips-dev). Its variadic calls (vips_thumbnail, vips_text, the savers)
// cannot be called from Swift: CImagingShim wraps the few we use.
#include <vips/vips.h>
