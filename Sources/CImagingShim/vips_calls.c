// SPDX-License-Identifier: GPL-2.0-or-later
#include "CImagingShim.h"

static void curator_vips_drop_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

int curator_vips_start(const char *program, int concurrency) {
    if (VIPS_INIT(program) != 0) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG,
                      curator_vips_drop_message, NULL);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_concurrency_set(concurrency);
    vips_block_untrusted_set(TRUE);
    // Only the photo formats: no PDF (poppler), SVG, FITS, OpenEXR, OpenSlide, CSV,
    // matrix or vips files from a user's folder, whatever its name says.
    vips_operation_block_set("VipsForeignLoad", TRUE);
    // By type name: libvips 8.14 does not find a base class by its nickname here.
    const char *photo_loaders[] = {
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp", "VipsForeignLoadTiff",
        "VipsForeignLoadHeif", "VipsForeignLoadNsgif",
    };
    for (size_t i = 0; i < sizeof photo_loaders / sizeof photo_loaders[0]; i++) {
        vips_operation_block_set(photo_loaders[i], FALSE);
    }
    return 0;
}

VipsImage *curator_vips_open_source(VipsSource *source, int fail_on) {
    return vips_image_new_from_source(source, "",
        "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", (VipsFailOn)fail_on,
        NULL);
}

int curator_vips_thumbnail_source(VipsSource *source, VipsImage **out, int width, int height, int no_rotate, int fail_on) {
    // libvips 8.14's thumbnail_source does not pass its own fail_on to the loader
    // (a truncated JPEG comes out grey-filled): the option string does.
    const char *names[] = { "none", "truncated", "error", "warning" };
    char options[32];
    g_snprintf(options, sizeof options, "fail_on=%s", names[fail_on >= 0 && fail_on <= 3 ? fail_on : 1]);
    return vips_thumbnail_source(source, out, width,
        "height", height,
        "size", VIPS_SIZE_DOWN,
        "no_rotate", no_rotate ? TRUE : FALSE,
        "fail_on", (VipsFailOn)fail_on,
        "option_string", options,
        NULL);
}

int curator_vips_jpeg_thumbnail(VipsSource *source, VipsImage **out, int shrink, int width, int height, int no_rotate, int fail_on,
                                int *decoded_width) {
    VipsImage *loaded = NULL;
    if (vips_jpegload_source(source, &loaded,
            "shrink", shrink,
            "access", VIPS_ACCESS_SEQUENTIAL,
            "fail_on", (VipsFailOn)fail_on,
            NULL) != 0) return -1;
    *decoded_width = vips_image_get_width(loaded);
    int rc = vips_thumbnail_image(loaded, out, width,
        "height", height,
        "size", VIPS_SIZE_DOWN,
        "no_rotate", no_rotate ? TRUE : FALSE,
        NULL);
    g_object_unref(loaded);
    return rc;
}

int curator_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_thumbnail_image(in, out, width,
        "height", height,
        "size", VIPS_SIZE_DOWN,
        "no_rotate", TRUE,
        NULL);
}

int curator_vips_to_srgb8(VipsImage *in, VipsImage **out) {
    VipsImage *srgb = NULL;
    if (vips_colourspace(in, &srgb, VIPS_INTERPRETATION_sRGB, NULL) != 0) return -1;
    int rc = vips_cast(srgb, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(srgb);
    return rc;
}

int curator_vips_rotate(VipsImage *in, VipsImage **out, int degrees) {
    VipsAngle angle;
    switch (((degrees % 360) + 360) % 360) {
    case 0: angle = VIPS_ANGLE_D0; break;
    case 90: angle = VIPS_ANGLE_D90; break;
    case 180: angle = VIPS_ANGLE_D180; break;
    case 270: angle = VIPS_ANGLE_D270; break;
    default: vips_error("curator", "rotation by %d degrees", degrees); return -1;
    }
    return vips_rot(in, out, angle, NULL);
}

int curator_vips_flip_horizontal(VipsImage *in, VipsImage **out) {
    return vips_flip(in, out, VIPS_DIRECTION_HORIZONTAL, NULL);
}

// The luminance as one 8-bit band: alpha flattened on black, then B_W.
static int curator_vips_grey(VipsImage *in, VipsImage **out) {
    VipsImage *flat = NULL;
    if (vips_image_hasalpha(in)) {
        if (vips_flatten(in, &flat, NULL) != 0) return -1;
    } else {
        flat = in;
        g_object_ref(in);
    }
    VipsImage *bw = NULL;
    int rc = vips_colourspace(flat, &bw, VIPS_INTERPRETATION_B_W, NULL);
    g_object_unref(flat);
    if (rc != 0) return -1;
    VipsImage *band = NULL;
    rc = vips_extract_band(bw, &band, 0, NULL);
    g_object_unref(bw);
    if (rc != 0) return -1;
    rc = vips_cast(band, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(band);
    return rc;
}

int curator_vips_grey_grid(VipsImage *in, VipsImage **out, int width, int height) {
    VipsImage *grey = NULL;
    if (curator_vips_grey(in, &grey) != 0) return -1;
    int rc = vips_thumbnail_image(grey, out, width, "height", height, "size", VIPS_SIZE_FORCE, "no_rotate", TRUE, NULL);
    g_object_unref(grey);
    return rc;
}

int curator_vips_laplacian_variance(VipsImage *in, double *variance) {
    VipsImage *grey = NULL;
    if (curator_vips_grey(in, &grey) != 0) return -1;
    VipsImage *mask = vips_image_new_matrixv(3, 3, 0.0, 1.0, 0.0, 1.0, -4.0, 1.0, 0.0, 1.0, 0.0);
    if (mask == NULL) {
        g_object_unref(grey);
        return -1;
    }
    VipsImage *laplacian = NULL;
    int rc = vips_conv(grey, &laplacian, mask, "precision", VIPS_PRECISION_FLOAT, NULL);
    g_object_unref(mask);
    g_object_unref(grey);
    if (rc != 0) return -1;
    double deviation = 0;
    rc = vips_deviate(laplacian, &deviation, NULL);
    g_object_unref(laplacian);
    if (rc != 0) return -1;
    *variance = deviation * deviation;
    return 0;
}

int curator_vips_text(VipsImage **out, const char *markup, const char *font, int dpi) {
    return vips_text(out, markup, "font", font, "dpi", dpi, NULL);
}

int curator_vips_png_buffer(VipsImage *in, void **bytes, size_t *length, int compression) {
    // Rows filtered "up" (each minus the one above): for thumbnails and contact
    // sheets both smaller and quicker to deflate than unfiltered rows.
    return vips_pngsave_buffer(in, bytes, length, "compression", compression, "strip", TRUE,
                               "filter", VIPS_FOREIGN_PNG_FILTER_UP, NULL);
}

int curator_vips_jpeg_buffer(VipsImage *in, void **bytes, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, bytes, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
}
