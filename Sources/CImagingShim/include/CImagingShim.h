// SPDX-License-Identifier: GPL-2.0-or-later
// The few libvips calls curatord's imaging uses, without varargs: Swift cannot call
// variadic C functions. Each returns 0 on success and -1 on failure, leaving the
// message in vips_error_buffer().
#ifndef CURATOR_IMAGING_SHIM_H
#define CURATOR_IMAGING_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <vips/vips.h>

// MARK: libvips set-up

/// Starts libvips for a process that decodes untrusted files one at a time:
/// no operation cache (nothing is reused, and a cache holds decoded pixels),
/// `concurrency` worker threads, every loader blocked but the photo formats'
/// (JPEG, PNG, WebP, TIFF, HEIF/AVIF, GIF), and its warnings (one per damaged file,
/// the error itself comes back to the caller) not printed.
int curator_vips_start(const char *program, int concurrency);

// MARK: loading

/// Opens an image from `source` lazily, header only, for sequential reading.
VipsImage *curator_vips_open_source(VipsSource *source, int fail_on);

/// vips_thumbnail_source: at most width x height, never upsized, shrink-on-load,
/// rotated upright from EXIF unless `no_rotate`.
int curator_vips_thumbnail_source(VipsSource *source, VipsImage **out, int width, int height, int no_rotate, int fail_on);

/// A JPEG's thumbnail with the shrink-on-load factor chosen by the caller (1, 2, 4
/// or 8: libjpeg decodes at that fraction of the size, the scaled DCT doing the
/// averaging), then vips_thumbnail_image to at most width x height, rotated upright
/// from EXIF unless `no_rotate`. vips_thumbnail_source keeps a factor of two for
/// its own resize, which for a 12 MP photo and 256 pixels means decoding at 1/4:
/// a quarter more CPU than at 1/8, for a difference of well under one level.
/// `*decoded_width` is set to the width libjpeg decoded (before rotation).
int curator_vips_jpeg_thumbnail(VipsSource *source, VipsImage **out, int shrink, int width, int height, int no_rotate, int fail_on,
                                int *decoded_width);

/// vips_thumbnail_image: a smaller thumbnail from one already made.
int curator_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height);

// MARK: conversion

/// 8-bit sRGB (or sRGB with alpha), whatever came in: grey, CMYK, 16-bit, float.
int curator_vips_to_srgb8(VipsImage *in, VipsImage **out);

/// Rotates by a multiple of 90 degrees clockwise (0, 90, 180, 270).
int curator_vips_rotate(VipsImage *in, VipsImage **out, int degrees);

/// Mirrors left to right.
int curator_vips_flip_horizontal(VipsImage *in, VipsImage **out);

// MARK: measures (stacks)

/// The luminance, one 8-bit band, resized to exactly width x height whatever the
/// aspect (a perceptual hash's grid).
int curator_vips_grey_grid(VipsImage *in, VipsImage **out, int width, int height);

/// The variance of the Laplacian (3x3, 4-neighbour) of the luminance: a focus
/// measure, larger for a sharper image of the same scene.
int curator_vips_laplacian_variance(VipsImage *in, double *variance);

// MARK: text

/// Renders `markup` (Pango markup) as a one-band 8-bit mask: 255 where ink is.
/// `font` is a Pango font description ("DejaVu Sans Bold 12"); `width` > 0 wraps
/// and ellipsizes nothing: callers pass short texts.
int curator_vips_text(VipsImage **out, const char *markup, const char *font, int dpi);

// MARK: saving

int curator_vips_png_buffer(VipsImage *in, void **bytes, size_t *length, int compression);
int curator_vips_jpeg_buffer(VipsImage *in, void **bytes, size_t *length, int quality);

#endif
