#pragma once
/*
 * libsegue for C++: a header-only wrapper over segue/embed.h, nothing more.
 *
 * RAII owners of a player, a transition and a sampler; failures as
 * exceptions; a sample's layers iterable back to front; a layer's mesh
 * projected and lit, its storage kept from frame to frame. Every rule (the
 * config policy, the takeover, the flat map, the shading, the light) stays
 * in libsegue: this file only owns handles and turns statuses into C++.
 *
 *   segue::Player player;                                // the standard player
 *   segue_transition_desc_t desc{};
 *   desc.bounds = {0, 0, 390, 844};
 *   desc.from = {"home", desc.bounds, nullptr, 0};
 *   desc.to = {"settings", desc.bounds, nullptr, 0};
 *   segue::Transition transition = player.begin(desc);   // the config's rules choose
 *   segue::Sampler sampler(transition);
 *   for (double t = 0; t <= transition.plan().duration; t += 1.0 / 60) {
 *       sampler.sample(t);
 *       for (const segue_drawn_layer_t &layer : sampler.layers()) draw(layer);   // back to front
 *   }
 *   segue::Report report = transition.finish(true);
 *
 * C++17 or later; link with `pkg-config --cflags --libs segue` (the header
 * is installed beside embed.h).
 *
 * Errors: exceptions. A constructor that cannot make its object has no
 * other way to say so, and begin() fails only for bad input (a plugin that
 * fails is a success: the built-in default plays, the plan says why). The
 * successes with something to know (SEGUE_LATE, SEGUE_CLAMPED) are
 * returned as values, never thrown; on the frame path (sample, layers,
 * prefetch) an exception means a misuse (a finished transition, a NaN
 * time). std::expected would serve too, but it is C++23, and hosts such as
 * KWin 5.27 build as C++20.
 *
 * Ownership and lifetime: each class owns its handle alone; it moves, never
 * copies, and frees the handle when destroyed (a transition not finished is
 * finished as not completed first). A Transition may outlive its Player
 * (libsegue keeps what it needs); a Sampler may outlive its Transition
 * (then its samples throw Error(SEGUE_E_ENDED)). Strings handed out are
 * copies (std::string), except where a member says it is a view.
 *
 * Threads: as embed.h marks each function. Player and Transition's begin,
 * dispatch and finish run on the player's main thread (the one that made
 * it); a Sampler on one thread at a time, any thread; plan() and prefetch()
 * on any thread. The event callback runs inside dispatch(), on the main
 * thread.
 */

#include "segue/embed.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace segue
{

/** A libsegue call that failed: its status, and segue_error_message()'s words (which name the call) as what(). */
class Error : public std::runtime_error
{
public:
    Error(segue_status_t status, const std::string &message)
        : std::runtime_error(message)
        , m_status(status)
    {
    }
    /** The status the call answered (negative). */
    segue_status_t status() const noexcept { return m_status; }

private:
    segue_status_t m_status;
};

namespace detail
{
inline std::string text(const char *s) { return s ? std::string(s) : std::string(); }

/** Throws Error for a negative status; returns the others. */
inline segue_status_t check(segue_status_t status, const char *call)
{
    if (status < 0) {
        const std::string why = text(segue_error_message());
        throw Error(status, why.empty() ? std::string(call) + ": failed" : why); // libsegue's words name the call
    }
    return status;
}
} // namespace detail

/** How to make a Player; default-constructed, the standard one (SEGUE_PLAYER_STANDARD_CONFIG's rules). */
struct PlayerOptions {
    /** Plugin folders searched first (segue_player_options_t.plugin_dirs). */
    std::vector<std::string> plugin_dirs;
    /** A config file the program names; empty for none (with SEGUE_PLAYER_STANDARD_CONFIG: the standard one). */
    std::string config_path;
    /** SEGUE_PLAYER_* flags. */
    uint32_t flags = SEGUE_PLAYER_STANDARD_CONFIG;
    /** segue_isolation_t and segue_sandbox_t values. */
    uint32_t isolation = SEGUE_ISOLATION_PROCESS, sandbox = SEGUE_SANDBOX_FROM_CONFIG;
    /** How long sample may wait for a plugin, in microseconds (0: 4000). */
    uint32_t sample_bound_us = 0;
    /** The segue-worker executable; empty for libsegue's own search. */
    std::string worker_path;
    /** Receives each event inside dispatch(), on the main thread; the event is valid during the call. */
    std::function<void(const segue_event_t &)> on_event;
};

/** What a transition's plan says (segue_plan_info_t), its strings copied. */
struct Plan {
    double duration = 0;
    std::string animator, reason;
    /** Its plugin file; empty for the built-in default. */
    std::string file;
    bool fell_back = false;
    /** The whole C struct: layers, hidden elements. Its strings are the transition's (valid until it is destroyed). */
    segue_plan_info_t info{};
};

/** How a transition ended (segue_transition_report_t), its strings copied. */
struct Report {
    std::string animator, reason;
    bool fell_back = false, completed = false;
};

class Sampler;

/** A transition being played: begun by Player::begin, finished once (or by the destructor, as not completed). */
class Transition
{
public:
    /** Takes `handle` (from segue_transition_begin) as its own. */
    explicit Transition(segue_transition_t *handle) noexcept
        : m_handle(handle)
    {
    }
    Transition(Transition &&other) noexcept
        : m_handle(std::exchange(other.m_handle, nullptr))
    {
    }
    Transition &operator=(Transition &&other) noexcept
    {
        std::swap(m_handle, other.m_handle);
        return *this;
    }
    Transition(const Transition &) = delete;
    Transition &operator=(const Transition &) = delete;
    /** Finishes it as not completed if it was not finished, and frees it. [main] */
    ~Transition() { segue_transition_free(m_handle); }

    /** The plan now (after a takeover, the default's). [any] */
    Plan plan() const
    {
        Plan plan;
        plan.info.struct_size = sizeof plan.info;
        detail::check(segue_transition_plan(m_handle, &plan.info), "segue_transition_plan");
        plan.duration = plan.info.duration;
        plan.animator = detail::text(plan.info.animator);
        plan.reason = detail::text(plan.info.reason);
        plan.file = detail::text(plan.info.file);
        plan.fell_back = plan.info.fell_back;
        return plan;
    }

    /** Asks the plugin for the states at `t` ahead, never waiting (segue_transition_prefetch); its status. [any] */
    segue_status_t prefetch(double t) noexcept { return segue_transition_prefetch(m_handle, t); }

    /** Ends it: the animator hears end(completed). Throws Error(SEGUE_E_ENDED) the second time. [main] */
    Report finish(bool completed)
    {
        segue_transition_report_t report{};
        report.struct_size = sizeof report;
        detail::check(segue_transition_finish(m_handle, completed, &report), "segue_transition_finish");
        return Report{detail::text(report.animator), detail::text(report.reason), report.fell_back, report.completed};
    }

    /** The C handle, still owned by this object. */
    segue_transition_t *get() const noexcept { return m_handle; }

private:
    segue_transition_t *m_handle;
};

/** The player: animators, config, workers. Movable; its events reach PlayerOptions::on_event. */
class Player
{
public:
    /** Makes a player (segue_player_new); throws Error (SEGUE_E_CONFIG for a named config that cannot be read). */
    explicit Player(PlayerOptions options = {})
        : m_events(std::make_unique<std::function<void(const segue_event_t &)>>(std::move(options.on_event)))
    {
        std::vector<const char *> dirs;
        for (const std::string &dir : options.plugin_dirs) {
            dirs.push_back(dir.c_str());
        }
        segue_player_options_t c{};
        c.struct_size = sizeof c;
        c.plugin_dirs = dirs.empty() ? nullptr : dirs.data();
        c.plugin_dir_count = uint32_t(dirs.size());
        c.config_path = options.config_path.empty() ? nullptr : options.config_path.c_str();
        c.isolation = options.isolation;
        c.sandbox = options.sandbox;
        c.worker_path = options.worker_path.empty() ? nullptr : options.worker_path.c_str();
        c.flags = options.flags;
        c.sample_bound_us = options.sample_bound_us;
        if (*m_events) {
            c.on_event = [](void *events, const segue_event_t *event) {
                (*static_cast<std::function<void(const segue_event_t &)> *>(events))(*event);
            };
            c.user_data = m_events.get(); // on the heap: a moved Player keeps it where libsegue points
        }
        detail::check(segue_player_new(&c, &m_handle), "segue_player_new");
    }
    Player(Player &&other) noexcept
        : m_handle(std::exchange(other.m_handle, nullptr))
        , m_events(std::move(other.m_events))
    {
    }
    Player &operator=(Player &&other) noexcept
    {
        std::swap(m_handle, other.m_handle);
        std::swap(m_events, other.m_events);
        return *this;
    }
    Player(const Player &) = delete;
    Player &operator=(const Player &) = delete;
    /** Frees it (segue_player_free): not from within its own event callback. [main] */
    ~Player() { segue_player_free(m_handle); }

    /** The descriptor to watch for reading; call dispatch() when it is readable. Owned by the player. [any] */
    int fd() const noexcept { return segue_player_fd(m_handle); }
    /** Delivers waiting events and applies reloads; never blocks. [main] */
    void dispatch() { detail::check(segue_player_dispatch(m_handle), "segue_player_dispatch"); }

    /**
     * Begins a transition (segue_transition_begin); `desc`'s struct_size is
     * set here. What cannot run plays the built-in default (a success);
     * throws Error only for bad input. [main]
     */
    Transition begin(segue_transition_desc_t desc)
    {
        desc.struct_size = sizeof desc;
        segue_transition_t *made = nullptr;
        detail::check(segue_transition_begin(m_handle, &desc, &made), "segue_transition_begin");
        return Transition(made);
    }

    /** The C handle, still owned by this object. */
    segue_player_t *get() const noexcept { return m_handle; }

private:
    segue_player_t *m_handle = nullptr;
    std::unique_ptr<std::function<void(const segue_event_t &)>> m_events;
};

/**
 * A transition's layers ready to draw (segue_sampler_t): it owns their
 * storage, follows a takeover, and hands them back to front. One thread at
 * a time; no allocation after construction.
 */
class Sampler
{
public:
    /** A sampler of `transition` (segue_sampler_new). Throws Error. [any] */
    explicit Sampler(const Transition &transition)
    {
        detail::check(segue_sampler_new(transition.get(), &m_handle), "segue_sampler_new");
    }
    /** Not of a temporary: it would be freed (finished) before the first sample. */
    explicit Sampler(Transition &&) = delete;
    Sampler(Sampler &&other) noexcept
        : m_handle(std::exchange(other.m_handle, nullptr))
        , m_count(other.m_count)
        , m_changed(other.m_changed)
    {
        std::copy(other.m_layers, other.m_layers + m_count, m_layers);
    }
    Sampler &operator=(Sampler &&other) noexcept
    {
        std::swap(m_handle, other.m_handle);
        m_count = std::exchange(other.m_count, 0);
        m_changed = other.m_changed;
        std::copy(other.m_layers, other.m_layers + m_count, m_layers);
        return *this;
    }
    Sampler(const Sampler &) = delete;
    Sampler &operator=(const Sampler &) = delete;
    ~Sampler() { segue_sampler_free(m_handle); }

    /**
     * Samples at `t` (segue_sampler_sample) and reads every layer: SEGUE_OK,
     * SEGUE_LATE (held states) or SEGUE_CLAMPED. Throws Error for a finished
     * transition or a NaN t (layers() is then empty).
     */
    segue_status_t sample(double t)
    {
        m_count = 0;
        uint32_t count = 0;
        const segue_status_t status = detail::check(segue_sampler_sample(m_handle, t, &count, &m_changed), "segue_sampler_sample");
        for (uint32_t i = 0; i < count && i < SEGUE_MAX_LAYERS; ++i) {
            m_layers[i] = segue_drawn_layer_t{};
            m_layers[i].struct_size = sizeof m_layers[i];
            detail::check(segue_sampler_layer(m_handle, i, &m_layers[i]), "segue_sampler_layer");
            m_count = i + 1;
        }
        return status;
    }

    /** Whether the plan changed at the last sample (the first, or a takeover): read Transition::plan() again. */
    bool plan_changed() const noexcept { return m_changed; }

    /** The last sample's layers, back (first) to front; a mesh's vertices valid until the next sample. */
    struct Layers {
        const segue_drawn_layer_t *first, *last;
        const segue_drawn_layer_t *begin() const noexcept { return first; }
        const segue_drawn_layer_t *end() const noexcept { return last; }
        size_t size() const noexcept { return size_t(last - first); }
        bool empty() const noexcept { return first == last; }
    };
    Layers layers() const noexcept { return Layers{m_layers, m_layers + m_count}; }

    /** The C handle, still owned by this object. */
    segue_sampler_t *get() const noexcept { return m_handle; }

private:
    segue_sampler_t *m_handle = nullptr;
    segue_drawn_layer_t m_layers[SEGUE_MAX_LAYERS];
    uint32_t m_count = 0;
    bool m_changed = false;
};

/**
 * A layer's mesh as a host draws it: its vertices projected to container
 * coordinates with their texture coordinates (segue_layer_project), and
 * each vertex's light, front and back (segue_mesh_light). Storage grows to
 * the largest mesh once and is kept; reuse one object from frame to frame.
 * One thread at a time.
 */
struct LitMesh {
    /** Cells across and down; (columns + 1) x (rows + 1) vertices, row-major from the top-left. */
    uint32_t columns = 0, rows = 0;
    /** Per vertex: xy[2i], xy[2i+1] in container coordinates; uv[2i], uv[2i+1] in [0, 1] of the content. */
    std::vector<float> xy, uv;
    /** Per vertex: the light on the front and on the back (1 as a flat page, down to 0.3), for segue_page_lit. */
    std::vector<float> front, back;

    /**
     * Projects and lights `layer` (one with a mesh) in a container of
     * `bounds`; false, and no vertices, when it has no mesh or a vertex is
     * behind the eye.
     */
    bool update(const segue_drawn_layer_t &layer, const segue_rect_t &bounds)
    {
        constexpr uint32_t most = (SEGUE_MAX_MESH_DIVISIONS + 1) * (SEGUE_MAX_MESH_DIVISIONS + 1);
        if (xy.size() < 2 * most) {
            xy.resize(2 * most);
            uv.resize(2 * most);
            front.resize(most);
            back.resize(most);
        }
        const uint32_t count = layer.has_mesh ? segue_layer_project(&layer.state, &layer.request, &bounds, 1, xy.data(), uv.data(),
                                                                    most, &columns, &rows)
                                              : 0;
        if (count == 0 || segue_mesh_light(&layer.state, &layer.request, false, front.data(), most) != count
            || segue_mesh_light(&layer.state, &layer.request, true, back.data(), most) != count) {
            columns = rows = 0;
            return false;
        }
        return true;
    }
    /** The vertices the last update wrote. */
    uint32_t vertex_count() const noexcept { return columns && rows ? (columns + 1) * (rows + 1) : 0; }
};

/**
 * The page shading as GLSL (segue_page_shading_glsl): `segue_page_back(c)`
 * and `segue_page_lit(c, shade)`, to put before a fragment shader's main.
 * Owned by libsegue for the life of the process. [any]
 */
inline const char *page_shading_glsl() noexcept { return segue_page_shading_glsl(); }

} // namespace segue
