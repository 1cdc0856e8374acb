// exempi (libexempi-dev): the Adobe XMP Toolkit behind a C API. Ratings, flags and
// colour labels are read from and written into XMP through it, never by hand.
#include <exempi/xmp.h>
#include <exempi/xmpconsts.h>
#include <exempi/xmperrors.h>

// The option bits Swift cannot take from exempi's anonymous enums, as typed constants.
static const uint32_t curator_xmp_prop_composite_mask = XMP_PROP_COMPOSITE_MASK;
static const uint32_t curator_xmp_prop_array_is_ordered = XMP_PROP_ARRAY_IS_ORDERED;
static const uint32_t curator_xmp_serial_sidecar = XMP_SERIAL_OMITPACKETWRAPPER | XMP_SERIAL_USECOMPACTFORMAT;
