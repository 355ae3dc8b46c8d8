#include "windowtransitions.h"

#include <algorithm>
#include <cmath>

namespace segue
{

namespace
{
/// The most vertices a projection writes: a mesh's 65 x 65.
constexpr uint32_t kMaxVertices = (SEGUE_MAX_MESH_DIVISIONS + 1) * (SEGUE_MAX_MESH_DIVISIONS + 1);

std::string text(const char *s) { return s ? std::string(s) : std::string(); }

segue_rect_t rect(Rect r) { return segue_rect_t{r.x, r.y, r.width, r.height}; }
} // namespace

WindowTransition::WindowTransition(segue_transition_t *transition, segue_transition_kind_t kind, Rect output)
    : m_transition(transition)
    , m_kind(kind)
    , m_output(output)
{
    if (segue_sampler_new(m_transition, &m_sampler) != SEGUE_OK) {
        m_sampler = nullptr;
    }
    readPlan();
}

WindowTransition::~WindowTransition()
{
    finish(false);
    segue_sampler_free(m_sampler);
    segue_transition_free(m_transition);
}

void WindowTransition::readPlan()
{
    segue_plan_info_t plan{};
    plan.struct_size = sizeof plan;
    if (segue_transition_plan(m_transition, &plan) != SEGUE_OK) {
        return;
    }
    m_duration = plan.duration;
    m_animator = text(plan.animator);
    m_reason = text(plan.reason);
}

const WindowPose &WindowTransition::sample(double t)
{
    uint32_t count = 0;
    if (m_finished || !m_sampler || segue_sampler_sample(m_sampler, t, &count, nullptr) < 0) {
        return m_pose;
    }
    // The window is the description's `to` when opening, its `from` when closing; the plan names those sides.
    const uint32_t window = m_kind == SEGUE_TRANSITION_APPEAR ? SEGUE_LAYER_TO_VIEW : SEGUE_LAYER_FROM_VIEW;
    segue_drawn_layer_t layer{};
    layer.struct_size = sizeof layer;
    bool found = false;
    for (uint32_t i = 0; i < count && !found; ++i) {
        found = segue_sampler_layer(m_sampler, i, &layer) == SEGUE_OK && layer.request.kind == window;
    }
    if (!found) {
        return m_pose;
    }
    WindowPose &pose = m_pose;
    pose.visible = layer.visible;
    pose.alpha = layer.state.alpha;
    pose.flat = !layer.has_mesh;
    if (pose.flat) {
        pose.columns = pose.rows = 0;
        std::copy(layer.map, layer.map + 9, pose.matrix);
        return pose;
    }
    // Sized for the most vertices once, and kept at that size: later frames write over the same storage.
    if (pose.xy.size() < 2 * kMaxVertices) {
        pose.xy.resize(2 * kMaxVertices);
        pose.uv.resize(2 * kMaxVertices);
    }
    const segue_rect_t bounds = rect(m_output);
    const uint32_t vertices = segue_layer_project(&layer.state, &layer.request, &bounds, 1 /* unused: the mesh's grid */,
                                                  pose.xy.data(), pose.uv.data(), kMaxVertices, &pose.columns, &pose.rows);
    if (vertices == 0) {
        pose.visible = false; // behind the eye, or nothing to draw
        pose.columns = pose.rows = 0;
    }
    return pose;
}

void WindowTransition::prefetch(double t)
{
    if (!m_finished) {
        segue_transition_prefetch(m_transition, t);
    }
}

std::string WindowTransition::finish(bool completed)
{
    if (m_finished) {
        return m_reason;
    }
    m_finished = true;
    readPlan(); // the animator that ran last: the default's after a takeover
    segue_transition_report_t report{};
    report.struct_size = sizeof report;
    if (segue_transition_finish(m_transition, completed, &report) == SEGUE_OK && report.reason) {
        m_reason = report.reason;
    }
    return m_reason;
}

WindowTransitions::WindowTransitions(Log log)
    : m_log(std::move(log))
{
    segue_player_options_t options{};
    options.struct_size = sizeof options;
    // A compositor's thread has a frame to draw: it waits for a plugin asleep, never spinning.
    options.flags = SEGUE_PLAYER_STANDARD_CONFIG | SEGUE_PLAYER_WATCH | SEGUE_PLAYER_NO_SPIN;
    options.on_event = &WindowTransitions::onEvent;
    options.user_data = this;
    if (segue_player_new(&options, &m_player) != SEGUE_OK) {
        m_error = text(segue_error_message());
        m_player = nullptr;
    }
}

WindowTransitions::~WindowTransitions()
{
    segue_player_free(m_player);
}

int WindowTransitions::fd() const
{
    return m_player ? segue_player_fd(m_player) : -1;
}

void WindowTransitions::dispatch()
{
    if (m_player) {
        segue_player_dispatch(m_player);
    }
}

void WindowTransitions::onEvent(void *self, const segue_event_t *event)
{
    static_cast<WindowTransitions *>(self)->m_log(int(event->level), text(event->message));
}

std::unique_ptr<WindowTransition> WindowTransitions::begin(segue_transition_kind_t kind, const std::string &name, Rect frame, Rect output)
{
    if (!m_player || frame.width <= 0 || frame.height <= 0) {
        return nullptr;
    }
    segue_transition_desc_t desc{};
    desc.struct_size = sizeof desc;
    desc.kind = kind;
    desc.bounds = segue_rect_t{0, 0, output.x + output.width, output.y + output.height};
    const segue_view_t window{name.c_str(), rect(frame), nullptr, 0};
    const segue_view_t beneath{nullptr, segue_rect_t{}, nullptr, 0}; // the desktop: a transparent stand-in
    desc.from = kind == SEGUE_TRANSITION_APPEAR ? beneath : window;
    desc.to = kind == SEGUE_TRANSITION_APPEAR ? window : beneath;
    desc.going_right = kind == SEGUE_TRANSITION_APPEAR;
    segue_transition_t *transition = nullptr;
    if (segue_transition_begin(m_player, &desc, &transition) != SEGUE_OK) {
        m_log(SEGUE_LOG_WARNING, "segue: " + name + ": " + text(segue_error_message()));
        return nullptr;
    }
    return std::make_unique<WindowTransition>(transition, kind, Rect{0, 0, desc.bounds.width, desc.bounds.height});
}

} // namespace segue
