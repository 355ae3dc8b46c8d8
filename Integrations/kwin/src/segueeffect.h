// The KWin 5.27 face of the Segue effect: KWin's signals, its paint passes and
// its window quads. What is not KWin's (the player, the rules, sampling and
// projection) is in windowtransitions.h; a port to another KWin release
// rewrites this file only.
#pragma once

#include "windowtransitions.h"

#include <kwinglutils.h>
#include <kwinoffscreeneffect.h>

#include <QMatrix4x4>
#include <QSocketNotifier>

#include <chrono>
#include <map>
#include <memory>
#include <set>

namespace KWin
{

class SegueEffect : public OffscreenEffect
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

protected:
    void apply(EffectWindow *w, int mask, WindowPaintData &data, WindowQuadList &quads) override;

private:
    /// A window opening, closing, minimizing or coming back: its transition,
    /// when it began, and the references that keep a closing window alive and
    /// a leaving one drawn until it ends.
    struct Running {
        std::unique_ptr<segue::WindowTransition> transition;
        std::chrono::milliseconds start{-1};
        /// The user's animation speed (AnimationDurationFactor): the transition's clock runs at its duration times this.
        double factor = 1;
        /// Seconds on the transition's clock (the animator's), and on the desktop's since it began.
        double t = 0, elapsed = 0;
        /// The transition's time asked for ahead, once the last frame was drawn (negative: none).
        double prefetched = -1;
        Change change = Change::Open;
        /// Frames painted, and the effect's own time spent on them (sampling and quads), for the log.
        int frames = 0;
        std::chrono::nanoseconds busy{0};
        /// The grid of quads a mesh is drawn as, its storage kept from frame to frame.
        WindowQuadList grid;
        /// Drawn offscreen and through quads (a mesh), rather than through a matrix (a flat layer).
        bool redirected = false;
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
    /// The page shader, made once (GLSL 1.40 and up; else KWin's own shader draws the back as the front).
    GLShader *pageShader();
    /// What rules match a window by: its application id (Wayland) or class (X11).
    static std::string name(EffectWindow *w);
    /// Where that name comes from, for the log: people write rules from xprop's
    /// WM_CLASS (XTerm), and KWin lower-cases it (xterm).
    static QString nameOrigin(EffectWindow *w);

    std::unique_ptr<segue::WindowTransitions> m_transitions;
    std::unique_ptr<QSocketNotifier> m_notifier;
    std::map<EffectWindow *, Running> m_running;
    /// The names the log has introduced this session: each once, not once per window or transition.
    std::set<std::string> m_named;
    /// Draws a mesh's texture, its back faces washed out as Segue's renderer shades a page's back (null: KWin's own).
    std::unique_ptr<GLShader> m_pageShader;
    bool m_pageShaderTried = false;
    /// The frame's projection from the output's coordinates, as the scene paints it.
    QMatrix4x4 m_projection;
    /// A test hook: SEGUE_KWIN_HOLD_AT=F holds every transition at fraction F (0 to 1) of its duration.
    double m_holdAt = -1;
};

} // namespace KWin
