// The Segue header, as a C module for the animator's Swift code.
#include "segue_animator.h"
