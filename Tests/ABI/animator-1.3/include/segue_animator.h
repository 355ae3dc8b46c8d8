#pragma once
/*
 * Segue animator ABI: the umbrella header (its version is in segue/version.h).
 *
 * Include this one file to write an animator plugin in C (or in anything that
 * can make a C-ABI shared library). C plugins need nothing but these headers.
 * Swift plugins import the AnimatorABI module and must be built with the same
 * Swift toolchain as the host: Swift has no stable ABI on Linux.
 *
 *   segue/version.h   versions and the compatibility promise
 *   segue/geometry.h  rectangles, points, 3D transforms
 *   segue/host.h      the host function table: log, curves, springs
 *   segue/context.h   what an animator knows about a transition
 *   segue/animator.h  animators, parameters, plans, layer states, threads
 *   segue/entry.h     the plugin descriptor and the exported entry point
 */

#include "segue/version.h"
#include "segue/geometry.h"
#include "segue/host.h"
#include "segue/context.h"
#include "segue/animator.h"
#include "segue/entry.h"
