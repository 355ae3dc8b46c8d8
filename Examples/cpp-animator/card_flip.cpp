// CardFlip: the from view turns away like a card about its middle, and the to
// view turns in from the other side, in perspective: a Segue animator in C++17.
//
// The animator is a class behind the C entry point. The header is included as
// it is; the descriptors are static data; no exception crosses the ABI (the
// Makefile builds with -fno-exceptions, and every callback is noexcept).
//
// Build it with nothing but the header (or with the Makefile beside it):
//   c++ -std=c++17 -shared -fPIC -fno-exceptions -I Sources/AnimatorABI/include
//       -o libCardFlip.so Examples/cpp-animator/card_flip.cpp
#include "segue_animator.h"

#include <cmath>

namespace {

const segue_host_t *host = nullptr;

/// One parameter, as static data (C++17 has no designated initialisers).
constexpr segue_param_t parameter(const char *name, const char *explanation, segue_param_type_t type,
                                  double fallback, double low, double high,
                                  const char *const *choices = nullptr, uint32_t choiceCount = 0) {
    segue_param_t p{};
    p.struct_size = sizeof(segue_param_t);
    p.name = name;
    p.explanation = explanation;
    p.type = type;
    p.default_value = fallback;
    p.min_value = low;
    p.max_value = high;
    p.choices = choices;
    p.choice_count = choiceCount;
    return p;
}

class CardFlip {
public:
    enum Param { duration, perspective, axis, count };

    static constexpr const char *axes[] = {"vertical", "horizontal"};
    static constexpr segue_param_t durationParam =
        parameter("duration", "Length of the flip, in seconds.", SEGUE_PARAM_NUMBER, 0.6, 0.05, 10);
    static constexpr segue_param_t perspectiveParam =
        parameter("perspective", "Distance of the eye from the card, in points: smaller is more dramatic.",
                  SEGUE_PARAM_NUMBER, 900, 300, 5000);
    static constexpr segue_param_t axisParam =
        parameter("axis", "The line the card turns about: vertical (left-right) or horizontal (top-bottom).",
                  SEGUE_PARAM_CHOICE, 0, 0, 1, axes, 2);
    static constexpr const segue_param_t *params[count] = {&durationParam, &perspectiveParam, &axisParam};

    static segue_setup_result_t setup(const segue_animator_t *, const segue_context_t *ctx, segue_plan_t *plan) noexcept {
        plan->duration = ctx->params[duration];
        plan->layer_count = 2;
        plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
        plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
        return SEGUE_SETUP_ANIMATE;
    }

    static void evaluate(const segue_animator_t *, const segue_context_t *ctx, const segue_plan_t *plan, double t,
                         segue_layer_state_t *const *states, uint32_t) noexcept {
        const double f = host->curve_value(SEGUE_CURVE_EASE_IN_OUT, t / plan->duration);
        const double half = 3.141592653589793 / 2;
        const bool firstHalf = f < 0.5;
        // The from view turns from 0 to a quarter turn, then the to view from minus a quarter turn to 0.
        const double angle = firstHalf ? f * 2 * half : (f - 1) * 2 * half;
        segue_layer_state_t &from = *states[0], &to = *states[1];
        from.frame = ctx->from_initial_frame;
        to.frame = ctx->to_final_frame;
        from.hidden = !firstHalf;
        to.hidden = firstHalf;
        (firstHalf ? from : to).transform = turn(angle, ctx->params[perspective], ctx->params[axis] >= 0.5);
    }

private:
    /// A turn by `angle` about the vertical (or horizontal) axis, seen from `eye` points away
    /// (Core Animation's convention: row vectors, m34 = -1/eye).
    static segue_transform3d_t turn(double angle, double eye, bool horizontal) noexcept {
        const double c = std::cos(angle), s = std::sin(angle), p = -1 / eye;
        segue_transform3d_t m = SEGUE_TRANSFORM3D_IDENTITY;
        if (horizontal) {
            m.m[5] = c;  m.m[6] = s;   // m22, m23
            m.m[9] = -s; m.m[10] = c;  // m32, m33
            m.m[7] = s * p;            // m24: m23 · m34
            m.m[11] = c * p;           // m34
        } else {
            m.m[0] = c;  m.m[2] = -s;  // m11, m13
            m.m[8] = s;  m.m[10] = c;  // m31, m33
            m.m[3] = -s * p;           // m14: m13 · m34
            m.m[11] = c * p;           // m34
        }
        return m;
    }
};

segue_animator_t makeAnimator() {
    segue_animator_t a{};
    a.abi_version = SEGUE_ABI_VERSION_INIT;
    a.struct_size = sizeof(segue_animator_t);
    a.id = "org.segue.example.card-flip/1";
    a.name = "CardFlip";
    a.version = "1.0.0";
    a.description = "Turns the from view away like a card about its middle, and the to view in from the other side, in perspective.";
    a.params = CardFlip::params;
    a.param_count = CardFlip::count;
    a.setup = CardFlip::setup;
    a.evaluate = CardFlip::evaluate;
    a.end = nullptr;
    return a;
}

const segue_animator_t cardFlip = makeAnimator();
const segue_animator_t *const animators[] = {&cardFlip};

segue_plugin_t makePlugin() {
    segue_plugin_t p{};
    p.abi_version = SEGUE_ABI_VERSION_INIT;
    p.struct_size = sizeof(segue_plugin_t);
    p.animators = animators;
    p.animator_count = 1;
    return p;
}

const segue_plugin_t plugin = makePlugin();

}  // namespace

extern "C" SEGUE_EXPORT const segue_plugin_t *segue_animator_entry(const segue_host_t *h) {
    if (!segue_version_is_compatible(h->abi_version)) return nullptr;
    host = h;
    return &plugin;
}
