/* What bindgen reads: the public header, as it is. */
#include "segue_animator.h"
