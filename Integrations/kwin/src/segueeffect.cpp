#include "segueeffect.h"

#include <kwinglplatform.h>

#include <QLoggingCategory>

#include <cmath>
#include <cstdlib>

Q_LOGGING_CATEGORY(SEGUE_EFFECT, "segue.kwin", QtInfoMsg)

namespace KWin
{

namespace
{
/// A rectangle of KWin's as Segue's.
segue::Rect rect(const QRectF &r) { return segue::Rect{r.x(), r.y(), r.width(), r.height()}; }

/// Minimizing is a disappearance, coming back an appearance: the same rules choose their animators.
bool leaves(SegueEffect::Change change) { return change == SegueEffect::Change::Close || change == SegueEffect::Change::Minimize; }

/// The words the log says a change in, as it begins and as it ends.
QString beginning(SegueEffect::Change change)
{
    static const char *words[] = {"opens", "closes", "minimizes", "unminimizes"};
    return QString::fromLatin1(words[int(change)]);
}
QString ending(SegueEffect::Change change)
{
    static const char *words[] = {"opened", "closed", "minimized", "unminimized"};
    return QString::fromLatin1(words[int(change)]);
}

/// The role an effect sets on a window while it animates this change, so that other effects leave it alone.
DataRole grabRole(SegueEffect::Change change)
{
    static const DataRole roles[] = {WindowAddedGrabRole, WindowClosedGrabRole, WindowMinimizedGrabRole, WindowUnminimizedGrabRole};
    return roles[int(change)];
}

/// Windows KWin's Scale leaves to others: the logout screen and splash have their own effects; Spectacle stays
/// out of its own screenshots (window classes as KWin gives them, X11 and Wayland).
bool leftToOthers(const QString &windowClass)
{
    static const QStringList classes = {
        QStringLiteral("ksmserver ksmserver"),         QStringLiteral("ksmserver-logout-greeter ksmserver-logout-greeter"),
        QStringLiteral("ksplashqml ksplashqml"),       QStringLiteral("spectacle spectacle"),
        QStringLiteral("spectacle org.kde.spectacle"),
    };
    return classes.contains(windowClass);
}
} // namespace

bool SegueEffect::supported()
{
    return OffscreenEffect::supported();
}

SegueEffect::SegueEffect()
{
    auto log = [](int level, const std::string &message) {
        const QString text = QString::fromStdString(message);
        if (level >= SEGUE_LOG_WARNING) {
            qCWarning(SEGUE_EFFECT).noquote() << text;
        } else {
            qCInfo(SEGUE_EFFECT).noquote() << text;
        }
    };
    m_transitions = std::make_unique<segue::WindowTransitions>(log);
    if (!m_transitions->ready()) {
        qCWarning(SEGUE_EFFECT).noquote() << "segue: cannot play animators:" << QString::fromStdString(m_transitions->error());
        return;
    }
    // Reloads of the config and the plugin folders arrive through libsegue's descriptor.
    m_notifier = std::make_unique<QSocketNotifier>(m_transitions->fd(), QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, [this]() {
        m_transitions->dispatch();
    });
    if (const char *hold = std::getenv("SEGUE_KWIN_HOLD_AT")) {
        m_holdAt = std::atof(hold);
    }
    connect(effects, &EffectsHandler::windowAdded, this, &SegueEffect::windowAdded);
    connect(effects, &EffectsHandler::windowClosed, this, &SegueEffect::windowClosed);
    connect(effects, &EffectsHandler::windowMinimized, this, &SegueEffect::windowMinimized);
    connect(effects, &EffectsHandler::windowUnminimized, this, &SegueEffect::windowUnminimized);
    connect(effects, &EffectsHandler::windowDataChanged, this, &SegueEffect::windowDataChanged);
    qCInfo(SEGUE_EFFECT) << "segue: playing window animators";
}

SegueEffect::~SegueEffect()
{
    // Every window still animating is released as it is: drawn normally, or let go if deleted.
    while (!m_running.empty()) {
        end(m_running.begin()->first, false);
    }
}

bool SegueEffect::animates(EffectWindow *w)
{
    // As KWin 5.27's Scale and Fade choose: plasmashell's windows only when decorated (its settings dialogs,
    // not its panels and popups); a decorated window always; never a popup (menus, tooltips, combo boxes),
    // the screen locker, the window outline or an override-redirect window; else normal windows and dialogs
    // (not the desktop, docks, OSDs, notifications, splashes).
    const QString windowClass = w->windowClass();
    if (windowClass == QLatin1String("plasmashell plasmashell") || windowClass == QLatin1String("plasmashell org.kde.plasmashell")) {
        return w->hasDecoration();
    }
    if (leftToOthers(windowClass)) {
        return false;
    }
    if (w->hasDecoration()) {
        return true;
    }
    if (w->isPopupWindow() || w->isLockScreen() || w->isOutline() || !w->isManaged()) {
        return false;
    }
    return w->isNormalWindow() || w->isDialog();
}

QString SegueEffect::leftAlone(EffectWindow *w, Change change) const
{
    if (effects->hasActiveFullScreenEffect()) {
        return QStringLiteral("a full-screen effect (Overview, Present Windows) is on");
    }
    if (effects->animationTimeFactor() <= 0) {
        return QStringLiteral("the desktop's animations are off (AnimationDurationFactor 0 in kdeglobals)");
    }
    if (change == Change::Close && w->skipsCloseAnimation()) {
        return QStringLiteral("the window skips close animations");
    }
    const void *grabber = w->data(grabRole(change)).value<void *>();
    if (grabber && grabber != this) {
        return QStringLiteral("another effect animates it (it holds the window's grab role)");
    }
    return QString();
}

void SegueEffect::windowDataChanged(EffectWindow *w, int role)
{
    auto it = m_running.find(w);
    if (it == m_running.end() || role != grabRole(it->second.change)) {
        return;
    }
    const void *grabber = w->data(role).value<void *>();
    if (grabber && grabber != this) {
        qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1 %2: left to another effect, which took the window's grab role")
                                              .arg(QString::fromStdString(name(w)), beginning(it->second.change));
        end(w, false);
    }
}

std::string SegueEffect::name(EffectWindow *w)
{
    // On Wayland the class is the application id (org.kde.kcalc); on X11 the WM_CLASS class.
    return w->windowClass().section(QLatin1Char(' '), -1).toStdString();
}

QString SegueEffect::nameOrigin(EffectWindow *w)
{
    if (w->isX11Client()) {
        return QStringLiteral("X11 class, lower-cased by KWin");
    }
    return w->isWaylandClient() ? QStringLiteral("Wayland app id") : QStringLiteral("KWin's own window");
}

void SegueEffect::windowAdded(EffectWindow *w)
{
    if (animates(w) && w->isVisible()) {
        begin(w, Change::Open);
    }
}

void SegueEffect::windowClosed(EffectWindow *w)
{
    if (!animates(w)) {
        return;
    }
    // Closed while another change plays: that one is cut short, and the close starts from rest.
    end(w, false);
    // A minimized window (minimizing ones too) is not on screen: it closes unseen.
    if (!w->isMinimized() && w->isVisible()) {
        begin(w, Change::Close);
    }
}

bool SegueEffect::minimizeIsOurs()
{
    // System Settings keeps one minimize animation (Squash, Magic Lamp): when one is on, it plays, not Segue.
    // KWin answers through the slot its D-Bus interface uses; it is not in the effect API's headers.
    for (const char *other : {"kwin4_effect_squash", "magiclamp"}) {
        bool loaded = false;
        QMetaObject::invokeMethod(effects, "isEffectLoaded", Qt::DirectConnection, Q_RETURN_ARG(bool, loaded),
                                  Q_ARG(QString, QString::fromLatin1(other)));
        if (loaded) {
            return false;
        }
    }
    return true;
}

GLShader *SegueEffect::pageShader()
{
    if (m_pageShaderTried) {
        return m_pageShader.get();
    }
    m_pageShaderTried = true;
    if (GLPlatform::instance()->isGLES() || GLPlatform::instance()->glslVersion() < kVersionNumber(1, 40)) {
        return nullptr;
    }
    // KWin's texture shader, with Segue's paper back (libsegue's segue_page_shading_glsl, as Segue's renderer
    // shades it): where a triangle of the mesh is seen from behind, the front washed out. The texture is premultiplied.
    static const QByteArray fragment = QByteArray("#version 140\n") + segue_page_shading_glsl() + R"(
uniform sampler2D sampler;
uniform vec4 modulation;
uniform float saturation;
in vec2 texcoord0;
out vec4 fragColor;
void main()
{
    vec4 c = texture(sampler, texcoord0);
    if (!gl_FrontFacing) {
        c = segue_page_back(c);
    }
    if (saturation != 1.0) {
        vec3 desaturated = c.rgb * vec3(0.30, 0.59, 0.11);
        desaturated = vec3(dot(desaturated, c.rgb));
        c.rgb = c.rgb * vec3(saturation) + desaturated * vec3(1.0 - saturation);
    }
    fragColor = c * modulation;
}
)";
    effects->makeOpenGLContextCurrent();
    auto shader = ShaderManager::instance()->generateCustomShader(ShaderTrait::MapTexture | ShaderTrait::Modulate
                                                                      | ShaderTrait::AdjustSaturation,
                                                                  QByteArray(), fragment);
    if (shader && shader->isValid()) {
        m_pageShader = std::move(shader);
    } else {
        qCWarning(SEGUE_EFFECT) << "segue: a page's back is drawn as its front: the page shader did not compile";
    }
    return m_pageShader.get();
}

void SegueEffect::windowMinimized(EffectWindow *w)
{
    if (animates(w) && minimizeIsOurs()) {
        end(w, false); // minimized while opening or coming back
        begin(w, Change::Minimize);
    }
}

void SegueEffect::windowUnminimized(EffectWindow *w)
{
    if (animates(w) && minimizeIsOurs()) {
        end(w, false); // back while it was still leaving
        begin(w, Change::Unminimize);
    }
}

void SegueEffect::begin(EffectWindow *w, Change change)
{
    // KWin's platform contract, as its own effects keep it: the change happens at once, or another effect plays it.
    if (const QString why = leftAlone(w, change); !why.isEmpty()) {
        qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1 %2, not animated: %3").arg(QString::fromStdString(name(w)), beginning(change), why);
        return;
    }
    const segue_transition_kind_t kind = leaves(change) ? SEGUE_TRANSITION_DISAPPEAR : SEGUE_TRANSITION_APPEAR;
    const QRectF frame = w->frameGeometry();
    auto transition = m_transitions->begin(kind, name(w), rect(frame), rect(effects->virtualScreenGeometry()));
    if (!transition) {
        return;
    }
    // The speed the user chose in System Settings, as KWin's effects scale their times (Effect::animationTime).
    const double factor = effects->animationTimeFactor();
    // Said for people reading KWin's log, and for the tests: the window, where it is, the animator, how long and why.
    qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1 %2 at %3,%4 %5x%6: %7 for %8 s (the animator's %9 s x %10, the desktop's animation speed; %11)")
                                          .arg(QString::fromStdString(name(w)), beginning(change))
                                          .arg(frame.x()).arg(frame.y()).arg(frame.width()).arg(frame.height())
                                          .arg(QString::fromStdString(transition->animator()))
                                          .arg(transition->duration() * factor)
                                          .arg(transition->duration())
                                          .arg(factor)
                                          .arg(QString::fromStdString(transition->reason()));
    // Once per name a session: the name rules see, which may differ from what the user wrote (see nameOrigin).
    if (m_named.insert(name(w)).second) {
        qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: window '%1' (%2; rules match this name) %3 with %4: %5")
                                              .arg(QString::fromStdString(name(w)), nameOrigin(w), beginning(change),
                                                   QString::fromStdString(transition->animator()),
                                                   QString::fromStdString(transition->reason()));
    }
    Running &running = m_running[w];
    running.transition = std::move(transition);
    running.change = change;
    running.factor = factor;
    // Taken, for other effects: they leave the window to Segue until it lets go in end().
    w->setData(grabRole(change), QVariant::fromValue(static_cast<void *>(this)));
    // A leaving window stays drawn (and a closed one alive) until its transition ends.
    if (change == Change::Close) {
        running.deletedRef = EffectWindowDeletedRef(w);
        running.visibleRef = EffectWindowVisibleRef(w, EffectWindow::PAINT_DISABLED_BY_DELETE);
    } else if (change == Change::Minimize) {
        running.visibleRef = EffectWindowVisibleRef(w, EffectWindow::PAINT_DISABLED_BY_MINIMIZE);
    }
    effects->addRepaintFull();
}

void SegueEffect::end(EffectWindow *w, bool completed)
{
    auto it = m_running.find(w);
    if (it == m_running.end()) {
        return;
    }
    const Running &running = it->second;
    if (w->data(grabRole(running.change)).value<void *>() == this) {
        w->setData(grabRole(running.change), QVariant());
    }
    const std::string reason = running.transition->finish(completed);
    const double perFrame = running.frames ? std::chrono::duration<double, std::micro>(running.busy).count() / running.frames : 0;
    qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1 %2: %3 (%4); %5 frames in %6 s, the effect's own time %7 us a frame")
                                          .arg(QString::fromStdString(name(w)), ending(running.change),
                                               completed ? QStringLiteral("completed") : QStringLiteral("cut short"),
                                               QString::fromStdString(reason))
                                          .arg(running.frames)
                                          .arg(running.elapsed, 0, 'f', 3)
                                          .arg(perFrame, 0, 'f', 1);
    if (running.redirected) {
        unredirect(w);
    }
    m_running.erase(it); // drops the references: a closed window goes now
    effects->addRepaintFull();
}

void SegueEffect::prePaintScreen(ScreenPrePaintData &data, std::chrono::milliseconds presentTime)
{
    for (auto &[w, running] : m_running) {
        if (running.start.count() < 0) {
            running.start = presentTime;
        }
        const double duration = running.transition->duration();
        running.elapsed = (presentTime - running.start).count() / 1000.0;
        running.t = m_holdAt >= 0 ? m_holdAt * duration : running.elapsed / running.factor;
        // KWin's presentation times are whole milliseconds: a frame within 2 ms of the time asked for
        // ahead shows that time, whose answer is ready.
        if (running.prefetched >= 0 && std::abs(running.t - running.prefetched) * running.factor <= 0.002) {
            running.t = running.prefetched;
        }
        // One sample a frame, bounded by the player's sample bound: a late plugin's last pose is kept.
        const auto began = std::chrono::steady_clock::now();
        const segue::WindowPose &pose = running.transition->sample(std::min(running.t, duration));
        running.busy += std::chrono::steady_clock::now() - began;
        running.frames += 1;
        // A flat layer is drawn as KWin draws any window, through a matrix; a mesh offscreen, through quads.
        const bool meshed = !pose.flat && pose.columns > 0;
        if (meshed != running.redirected) {
            if (meshed) {
                redirect(w);
                if (GLShader *shader = pageShader()) {
                    setShader(w, shader);
                }
            } else {
                unredirect(w);
            }
            running.redirected = meshed;
        }
    }
    if (!m_running.empty()) {
        data.mask |= PAINT_SCREEN_WITH_TRANSFORMED_WINDOWS;
    }
    effects->prePaintScreen(data, presentTime);
}

void SegueEffect::prePaintWindow(EffectWindow *w, WindowPrePaintData &data, std::chrono::milliseconds presentTime)
{
    if (m_running.count(w)) {
        data.setTransformed();
        data.setTranslucent();
    }
    effects->prePaintWindow(w, data, presentTime);
}

void SegueEffect::paintScreen(int mask, const QRegion &region, ScreenPaintData &data)
{
    m_projection = data.projectionMatrix();
    effects->paintScreen(mask, region, data);
}

void SegueEffect::paintWindow(EffectWindow *w, int mask, QRegion region, WindowPaintData &data)
{
    if (auto it = m_running.find(w); it != m_running.end()) {
        const segue::WindowPose &pose = it->second.transition->pose();
        if (!pose.visible) {
            return;
        }
        data.multiplyOpacity(std::clamp(pose.alpha, 0.0, 1.0));
        if (pose.flat) {
            // The window's points at rest, through the pose's map, then as the scene projects the output.
            // Its z is flattened (the layer is drawn as seen, never clipped by depth); the GPU divides by W.
            const double *m = pose.matrix;
            const QMatrix4x4 map(m[0], m[1], 0, m[2], m[3], m[4], 0, m[5], 0, 0, 0, 0, m[6], m[7], 0, m[8]);
            data.setProjectionMatrix(m_projection * map);
        }
    }
    effects->paintWindow(w, mask, region, data);
}

void SegueEffect::apply(EffectWindow *w, int mask, WindowPaintData &data, WindowQuadList &quads)
{
    Q_UNUSED(mask)
    Q_UNUSED(data)
    auto it = m_running.find(w);
    if (it == m_running.end()) {
        return;
    }
    const auto began = std::chrono::steady_clock::now();
    const segue::WindowPose &pose = it->second.transition->pose();
    if (pose.columns == 0 || pose.rows == 0) {
        return; // no pose yet: the window as it is
    }
    // The pose is in the output's coordinates over the window's frame; the
    // quads are in the frame's, their texture over the expanded geometry (shadows included).
    const QRectF frame = w->frameGeometry(), expanded = w->expandedGeometry();
    const double u0 = (frame.x() - expanded.x()) / expanded.width(), v0 = (frame.y() - expanded.y()) / expanded.height();
    const double us = frame.width() / expanded.width(), vs = frame.height() / expanded.height();
    const uint32_t stride = pose.columns + 1;
    auto vertex = [&](uint32_t column, uint32_t row) {
        const size_t i = 2 * (size_t(row) * stride + column);
        return WindowVertex(pose.xy[i] - frame.x(), pose.xy[i + 1] - frame.y(), u0 + pose.uv[i] * us, v0 + pose.uv[i + 1] * vs);
    };
    // Rewritten in place: KWin let go of last frame's list, so this one's storage is not shared and not reallocated.
    WindowQuadList &grid = it->second.grid;
    grid.clear();
    grid.reserve(int(pose.rows * pose.columns));
    for (uint32_t row = 0; row < pose.rows; ++row) {
        for (uint32_t column = 0; column < pose.columns; ++column) {
            WindowQuad quad;
            quad[0] = vertex(column, row);
            quad[1] = vertex(column + 1, row);
            quad[2] = vertex(column + 1, row + 1);
            quad[3] = vertex(column, row + 1);
            grid.append(quad);
        }
    }
    quads = grid;
    it->second.busy += std::chrono::steady_clock::now() - began;
}

void SegueEffect::postPaintScreen()
{
    std::vector<EffectWindow *> done;
    for (auto &[w, running] : m_running) {
        if (m_holdAt < 0 && running.t >= running.transition->duration()) {
            done.push_back(w);
        }
    }
    for (EffectWindow *w : done) {
        end(w, true);
    }
    // The next frame's time, asked for now: the plugin answers while KWin waits for the next refresh.
    for (auto &[w, running] : m_running) {
        const EffectScreen *screen = w->screen();
        const double refresh = screen && screen->refreshRate() > 0 ? screen->refreshRate() / 1000.0 : 60.0;
        const double next = m_holdAt >= 0 ? running.t : std::min(running.t + 1 / refresh / running.factor, running.transition->duration());
        running.transition->prefetch(next);
        running.prefetched = next;
    }
    if (!m_running.empty()) {
        effects->addRepaintFull();
    }
    effects->postPaintScreen();
}

bool SegueEffect::isActive() const
{
    return !m_running.empty();
}

KWIN_EFFECT_FACTORY_SUPPORTED(SegueEffect, "metadata.json", return SegueEffect::supported();)

} // namespace KWin

#include "segueeffect.moc"
