// The Segue effect for KWin 5.27: KWin's signals, its paint passes, its
// window quads and GL. What is not KWin's (the player, the config's rules,
// sampling, the flat map, the mesh's projection and light, the page shading)
// is libsegue's, reached through its C++ wrapper segue/segue.hpp; a port to
// another KWin release rewrites this file only.
#pragma once

#include <segue/segue.hpp>

#include <kwineffects.h>
#include <kwinglutils.h>

#include <QMatrix4x4>
#include <QSocketNotifier>

#include <chrono>
#include <map>
#include <memory>
#include <set>

namespace KWin
{

class SegueEffect : public Effect
{
    Q_OBJECT

public:
    /// What happens to a window: opening and coming back are appearances, closing and minimizing disappearances.
    enum class Change { Open, Close, Minimize, Unminimize };

    SegueEffect();
    ~SegueEffect() override;

    void prePaintScreen(ScreenPrePaintData &data, std::chrono::milliseconds presentTime) override;
    void prePaintWindow(EffectWindow *w, WindowPrePaintData &data, std::chrono::milliseconds presentTime) override;
    void paintScreen(int mask, const QRegion &region, ScreenPaintData &data) override;
    void paintWindow(EffectWindow *w, int mask, QRegion region, WindowPaintData &data) override;
    void postPaintScreen() override;
    bool isActive() const override;
    int requestedEffectChainPosition() const override { return 60; }

    static bool supported();

    void drawWindow(EffectWindow *w, int mask, const QRegion &region, WindowPaintData &data) override;

private:
    /// A window opening, closing, minimizing or coming back: its transition,
    /// when it began, and the references that keep a closing window alive and
    /// a leaving one drawn until it ends.
    struct Running {
        std::unique_ptr<segue::Transition> transition;
        std::unique_ptr<segue::Sampler> sampler;
        /// The plan's duration (seconds) and animator as it began, and the container's bounds (the outputs).
        double duration = 0;
        std::string animator;
        segue_rect_t bounds{};
        std::chrono::milliseconds start{-1};
        /// The user's animation speed (AnimationDurationFactor): the transition's clock runs at its duration times this.
        double factor = 1;
        /// Seconds on the transition's clock (the animator's), and on the desktop's since it began.
        double t = 0, elapsed = 0;
        /// The transition's time asked for ahead, once the last frame was drawn (negative: none).
        double prefetched = -1;
        Change change = Change::Open;
        /// The fraction of its duration it is held at (the test hook SEGUE_KWIN_HOLD_AT), or negative: played.
        double hold = -1;
        /// Frames painted, and the effect's own time spent on them (sampling and quads), for the log.
        int frames = 0;
        /// Times the window was drawn offscreen (a mesh's or a cut layer's picture), for the log.
        int pictures = 0;
        std::chrono::nanoseconds busy{0};
        /// The window's layer at the last sample: whether it is drawn, its opacity, and either its flat
        /// map (the window at rest to where it is seen, libsegue's segue_drawn_layer_t.map) or its mesh,
        /// projected and lit (storage kept from frame to frame).
        bool visible = true, meshed = false;
        double alpha = 1;
        double map[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        /// A flat layer's look (the animator ABI 1.4): its frame now and the window's at rest (the layer's own
        /// coordinates are its frame's, the window's content at rest scaled onto it), its clip, its corners' radius
        /// and its shadow, clamped by libsegue.
        segue_rect_t frame{}, resting{};
        segue_clip_t clip{};
        double corner = 0;
        segue_shadow_t shadow{};
        segue::LitMesh mesh;
        /// A mesh's picture: the window drawn offscreen, again whenever KWin says it changed.
        std::unique_ptr<GLTexture> picture;
        std::unique_ptr<GLFramebuffer> target;
        bool stale = true;
        EffectWindowDeletedRef deletedRef;
        EffectWindowVisibleRef visibleRef;
    };

    void windowAdded(EffectWindow *w);
    void windowClosed(EffectWindow *w);
    void windowMinimized(EffectWindow *w);
    void windowUnminimized(EffectWindow *w);
    void begin(EffectWindow *w, Change change);
    void end(EffectWindow *w, bool completed);
    /// Another effect took a window Segue animates (its grab role now another's): Segue lets it go.
    void windowDataChanged(EffectWindow *w, int role);
    /// Why KWin's platform contract says this change of the window is not animated now, or empty.
    QString leftAlone(EffectWindow *w, Change change) const;
    /// The kinds of window KWin's own open and close animations (Scale, Fade) animate.
    static bool animates(EffectWindow *w);
    /// Whether no other effect animates minimizing (KWin's Squash or Magic Lamp).
    static bool minimizeIsOurs();
    /// The window's layer sampled at the running transition's time: the pose to draw.
    void sample(Running &running);
    /// The window as it rests, drawn into the running transition's picture when KWin damaged it since.
    void drawPicture(EffectWindow *w, Running &running);
    /// The mesh shader, made once: KWin's texture shader with a per-vertex light, and libsegue's page shading
    /// (GLSL 1.40 and up; else KWin's own shader draws the mesh unlit, its back as its front).
    GLShader *pageShader();
    /// Whether a flat layer is cut (a clip, or rounded corners): then the effect draws the window itself, masked.
    bool cut(const Running &running) const;
    /// The shaders of ABI 1.4's look, made once (null when they cannot be: the look is not drawn, and the log says so):
    /// a window's picture masked by its clip and corners, and a shadow from the silhouette's signed distance.
    GLShader *lookShader(bool shadow);
    /// Draws the running flat layer's shadow (under it) or its picture cut to its clip and corners, through its map.
    void drawLook(EffectWindow *w, Running &running, bool shadow, const QRegion &region, const WindowPaintData &data);
    /// What rules match a window by: its application id (Wayland) or class (X11).
    static std::string name(EffectWindow *w);
    /// Where that name comes from, for the log: people write rules from xprop's
    /// WM_CLASS (XTerm), and KWin lower-cases it (xterm).
    static QString nameOrigin(EffectWindow *w);

    std::unique_ptr<segue::Player> m_player;
    std::unique_ptr<QSocketNotifier> m_notifier;
    std::map<EffectWindow *, Running> m_running;
    /// The names the log has introduced this session: each once, not once per window or transition.
    std::set<std::string> m_named;
    /// Draws a mesh's picture lit by its angle, its back washed out, as Segue's renderer shades a page (null: KWin's own).
    std::unique_ptr<GLShader> m_pageShader;
    bool m_pageShaderTried = false;
    /// ABI 1.4's look: the masked window's shader and the shadow's (see lookShader).
    std::unique_ptr<GLShader> m_lookShaders[2];
    bool m_lookShadersTried = false;
    /// A switch for comparisons and the benchmark: SEGUE_KWIN_LOOK=0 (or @FILE holding 0 as the effect loads)
    /// draws every layer without its look.
    bool m_look = true;
    /// The triangles of the largest mesh's grid (segue_grid_indices), for the meshes' vertex buffers.
    std::vector<int32_t> m_grid;
    uint32_t m_gridColumns = 0, m_gridRows = 0;
    /// The frame's projection from the output's coordinates, as the scene paints it.
    QMatrix4x4 m_projection;
    /// A test hook: SEGUE_KWIN_HOLD_AT=F holds every transition at fraction F (0 to 1) of its duration;
    /// SEGUE_KWIN_HOLD_AT=@FILE holds each transition at the fraction FILE holds as it begins (none: it plays).
    QByteArray m_holdAt;
    /// The fraction a transition beginning now is held at, or a negative number: played.
    double holdAt() const;
};

} // namespace KWin
