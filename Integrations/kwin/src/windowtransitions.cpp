#include "windowtransitions.h"

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

WindowTransition::WindowTransition(segue_transition_t *transition, segue_transition_kind_t kind, Rect frame, Rect output)
    : m_transition(transition)
    , m_kind(kind)
    , m_frame(frame)
    , m_output(output)
{
    readPlan();
}

WindowTransition::~WindowTransition()
{
    finish(false);
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
    m_layers.assign(plan.layers, plan.layers + plan.layer_count);
    m_states.assign(plan.layer_count, segue_layer_state_t{});
    m_meshes.assign(plan.layer_count, {});
    // The window is the description's `to` when opening, its `from` when closing; the plan names those sides.
    const uint32_t window = m_kind == SEGUE_TRANSITION_APPEAR ? SEGUE_LAYER_TO_VIEW : SEGUE_LAYER_FROM_VIEW;
    m_windowLayer = -1;
    for (uint32_t i = 0; i < plan.layer_count; ++i) {
        m_states[i].struct_size = sizeof(segue_layer_state_t);
        const uint32_t vertices = segue_layer_mesh_vertex_count(&m_layers[i]);
        if (vertices) {
            m_meshes[i].resize(vertices);
            m_states[i].mesh = m_meshes[i].data();
            m_states[i].mesh_vertex_count = vertices;
        }
        if (m_layers[i].kind == window) {
            m_windowLayer = int(i);
        }
    }
    m_pointers.clear();
    for (auto &state : m_states) {
        m_pointers.push_back(&state);
    }
}

const WindowPose &WindowTransition::sample(double t)
{
    if (m_finished || m_states.empty()) {
        return m_pose;
    }
    segue_status_t status = segue_transition_sample(m_transition, t, m_pointers.data(), uint32_t(m_pointers.size()));
    if (status == SEGUE_DEFAULT_TOOK_OVER) {
        // The plugin failed: the default's plan, from the same fraction. Its layers may differ.
        readPlan();
        status = segue_transition_sample(m_transition, t, m_pointers.data(), uint32_t(m_pointers.size()));
    }
    if (status < 0 || m_windowLayer < 0) {
        return m_pose;
    }
    const segue_layer_state_t &state = m_states[size_t(m_windowLayer)];
    WindowPose &pose = m_pose;
    pose.visible = !state.hidden;
    pose.alpha = state.alpha;
    pose.flat = m_layers[size_t(m_windowLayer)].mesh_columns == 0;
    if (pose.flat) {
        pose.columns = pose.rows = 0;
        pose.visible = pose.visible && flatMap(state, pose.matrix);
        return pose;
    }
    // Sized for the most vertices once, and kept at that size: later frames write over the same storage.
    if (pose.xy.size() < 2 * kMaxVertices) {
        pose.xy.resize(2 * kMaxVertices);
        pose.uv.resize(2 * kMaxVertices);
    }
    const segue_rect_t bounds = rect(m_output);
    const uint32_t count = segue_layer_project(&state, &m_layers[size_t(m_windowLayer)], &bounds, 1 /* unused: the mesh's grid */,
                                               pose.xy.data(), pose.uv.data(), kMaxVertices, &pose.columns, &pose.rows);
    if (count == 0) {
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

bool WindowTransition::flatMap(const segue_layer_state_t &state, double matrix[9]) const
{
    // As segue_layer_project sees a flat layer: a point (u, v) of its frame F, from the frame's centre,
    // as the row vector [u v 0 1] times the transform, perspective divided, moved back to F's centre.
    // The window at rest R is first scaled onto F.
    const segue_rect_t f = state.frame;
    const double *m = state.transform.m;
    if (m_frame.width <= 0 || m_frame.height <= 0) {
        return false;
    }
    const double sx = f.width / m_frame.width, sy = f.height / m_frame.height;
    const double tx = -m_frame.x * sx - f.width / 2, ty = -m_frame.y * sy - f.height / 2;
    const double cx = f.x + f.width / 2, cy = f.y + f.height / 2;
    // (X, Y, W) from (u, v, 1), the centre added back in homogeneous coordinates.
    const double a[9] = {m[0] + cx * m[3], m[4] + cx * m[7], m[12] + cx * m[15],
                         m[1] + cy * m[3], m[5] + cy * m[7], m[13] + cy * m[15],
                         m[3], m[7], m[15]};
    // Then (u, v) = (sx x + tx, sy y + ty) from the point (x, y) of the window at rest.
    for (int row = 0; row < 3; ++row) {
        matrix[3 * row + 0] = a[3 * row + 0] * sx;
        matrix[3 * row + 1] = a[3 * row + 1] * sy;
        matrix[3 * row + 2] = a[3 * row + 0] * tx + a[3 * row + 1] * ty + a[3 * row + 2];
    }
    // Visible only in front of the eye everywhere over the window, as segue_layer_project refuses a vertex behind it.
    for (double x : {m_frame.x, m_frame.x + m_frame.width}) {
        for (double y : {m_frame.y, m_frame.y + m_frame.height}) {
            const double w = matrix[6] * x + matrix[7] * y + matrix[8];
            if (!(w > 1e-9)) {
                return false;
            }
        }
    }
    for (int i = 0; i < 9; ++i) {
        if (!std::isfinite(matrix[i])) {
            return false;
        }
    }
    return true;
}

std::string WindowTransition::finish(bool completed)
{
    if (m_finished) {
        return m_reason;
    }
    m_finished = true;
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
    return std::make_unique<WindowTransition>(transition, kind, frame, Rect{0, 0, desc.bounds.width, desc.bounds.height});
}

} // namespace segue
