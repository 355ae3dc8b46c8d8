// What the Segue KWin effect does that is not KWin's: a libsegue player, the
// choice of an animator for a window opening or closing (the config's rules
// by application id), sampling a transition at a time, and projecting the
// window's layer to a grid of textured quads. Nothing here includes a KWin or
// Qt header, so a port to Plasma 6 or a wlroots compositor keeps this file.
#pragma once

#include <segue/embed.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace segue
{

/// A rectangle in the output's coordinates, in logical pixels.
struct Rect {
    double x = 0, y = 0, width = 0, height = 0;
};

/// Where a window is drawn at one moment, and its opacity. Not visible: draw nothing.
/// A flat layer (a frame and a transform, in perspective or not) is a
/// projective map of the window as it rests; a layer with a mesh (a page
/// curling) a grid of textured vertices.
struct WindowPose {
    bool visible = true;
    double alpha = 1;
    /// Without a mesh: the map from the window at rest to where it is drawn,
    /// both in the output's coordinates: (x, y, 1) times this row-major 3 x 3
    /// matrix's rows gives (X, Y, W), seen at (X / W, Y / W). W stays
    /// positive over the window (else it is not visible).
    bool flat = false;
    double matrix[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    /// With a mesh: (columns + 1) x (rows + 1) vertices, row-major from the
    /// top-left, each with its position in the output's coordinates and its
    /// texture coordinate in [0, 1] over the window's frame (xy and uv may
    /// hold more: their storage is kept at the largest grid's size).
    uint32_t columns = 0, rows = 0;
    std::vector<float> xy, uv;
};

/// One window's transition: opening (an appearance) or closing (a disappearance).
class WindowTransition
{
public:
    WindowTransition(segue_transition_t *transition, segue_transition_kind_t kind, Rect output);
    ~WindowTransition();
    WindowTransition(const WindowTransition &) = delete;
    WindowTransition &operator=(const WindowTransition &) = delete;

    /// Seconds, as the animator planned it.
    double duration() const { return m_duration; }
    /// The animator that runs ("default" for the built-in), and why (the report's words).
    const std::string &animator() const { return m_animator; }
    const std::string &reason() const { return m_reason; }

    /// The window's pose at `t` seconds (clamped to the duration). Waits at most
    /// the player's sample bound for a plugin; a late plugin's last pose is kept.
    /// Returns pose(): its storage is reused from frame to frame.
    const WindowPose &sample(double t);
    /// Has the plugin asked for the pose at `t` now, off the calling thread,
    /// so that the sample at `t` finds it ready (the frame after next is
    /// drawn while the worker answers). Never waits.
    void prefetch(double t);
    /// The last pose sampled; valid until the next sample.
    const WindowPose &pose() const { return m_pose; }

    /// Ends it, once; returns the report's reason.
    std::string finish(bool completed);

private:
    void readPlan();

    segue_transition_t *m_transition;
    /// libsegue's sampler: the layers' storage, the plan followed through a takeover, flat maps.
    segue_sampler_t *m_sampler = nullptr;
    segue_transition_kind_t m_kind;
    Rect m_output;
    double m_duration = 0;
    std::string m_animator, m_reason;
    WindowPose m_pose;
    bool m_finished = false;
};

/// The player: the config's rules and the plugin folders, followed as they change.
class WindowTransitions
{
public:
    /// Receives each thing libsegue says (reloads, config errors, fallbacks), and the effect's own lines.
    using Log = std::function<void(int level, const std::string &message)>;

    /// A player following the standard config (libsegue's
    /// SEGUE_PLAYER_STANDARD_CONFIG: read as it appears, changes, breaks and
    /// vanishes, the built-in default playing while there is none) and the
    /// plugin folders. On failure, `error()` says why and nothing plays but
    /// the compositor's own animations.
    explicit WindowTransitions(Log log);
    ~WindowTransitions();

    bool ready() const { return m_player != nullptr; }
    const std::string &error() const { return m_error; }

    /// The descriptor to watch for reading; call dispatch() when it is readable.
    int fd() const;
    void dispatch();

    /// Begins the opening (`SEGUE_TRANSITION_APPEAR`) or closing
    /// (`SEGUE_TRANSITION_DISAPPEAR`) of the window called `name` (its
    /// application id, else its class) at `frame` on `output`. Never fails but
    /// for bad input: what cannot run plays the built-in default.
    std::unique_ptr<WindowTransition> begin(segue_transition_kind_t kind, const std::string &name, Rect frame, Rect output);

private:
    static void onEvent(void *self, const segue_event_t *event);
    segue_player_t *m_player = nullptr;
    std::string m_error;
    Log m_log;
};

} // namespace segue
