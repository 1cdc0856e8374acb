// exempi (libexempi-dev): the Adobe XMP Toolkit behind a C API. Ratings, flags and
// colour labels are read from and written into XMP through it, never by hand.
#include <exempi/xmp.h>
#include <exempi/xmpconsts.h>
#include <exempi/xmperrors.h>

// The option bits Swift cannot take from exempi's anonymous enums, as typed constants.
static const uint32_t curator_xmp_prop_composite_mask = XMP_PROP_COMPOSITE_MASK;
static const uint32_t curator_xmp_prop_array_is_ordered = XMP_PROP_ARRAY_IS_ORDERED;
static const uint32_t curator_xmp_serial_sidecar = XMP_SERIAL_OMITPACKETWRAPPER | XMP_SERIAL_USECOMPACTFORMAT;

// Files opened through the toolkit's file handlers (embedded XMP): only the XMP is
// wanted (no reconciliation with EXIF or IPTC), and only by a format's own handler.
static const XmpOpenFileOptions curator_xmp_open_read =
    (XmpOpenFileOptions)(XMP_OPEN_READ | XMP_OPEN_ONLYXMP | XMP_OPEN_USESMARTHANDLER);
static const XmpOpenFileOptions curator_xmp_open_update =
    (XmpOpenFileOptions)(XMP_OPEN_FORUPDATE | XMP_OPEN_ONLYXMP | XMP_OPEN_USESMARTHANDLER);
