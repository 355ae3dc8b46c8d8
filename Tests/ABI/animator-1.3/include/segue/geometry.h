#pragma once
/*
 * Segue animator ABI: geometry. Plain values in points, with the origin at the
 * container's top-left corner, x to the right, y down, z towards the viewer.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A rectangle: origin and size, in points. Plain data. */
typedef struct segue_rect {
    double x;      /**< left edge */
    double y;      /**< top edge */
    double width;  /**< 0 or more */
    double height; /**< 0 or more */
} segue_rect_t;

/** A point in 3D, in points; z grows towards the viewer. Plain data. */
typedef struct segue_vec3 {
    double x;
    double y;
    double z;
} segue_vec3_t;

/**
 * A 3D affine or projective transform with the layout and meaning of Core
 * Animation's CATransform3D: row vectors, so a point p maps to p * M, and the
 * translation lives in m41, m42, m43. `m[0]` is m11, `m[1]` m12, ... `m[15]`
 * m44. Perspective is the usual m34 = -1/eye_distance.
 * A layer's transform is applied about the centre of its frame.
 */
typedef struct segue_transform3d {
    double m[16]; /**< m11, m12, m13, m14, m21, ... m44, row by row */
} segue_transform3d_t;

/** The identity transform, for initialisers. */
#define SEGUE_TRANSFORM3D_IDENTITY { { 1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, 0, 1 } }

#ifdef __cplusplus
}
#endif
