#include "segueeffect.h"

#include <kwinglplatform.h>
#include <kwingltexture.h>

#include <QFile>
#include <QLoggingCategory>

#include <cmath>

Q_LOGGING_CATEGORY(SEGUE_EFFECT, "segue.kwin", QtInfoMsg)

namespace KWin
{

namespace
{
/// A rectangle of KWin's as Segue's.
segue_rect_t rect(const QRectF &r) { return segue_rect_t{r.x(), r.y(), r.width(), r.height()}; }

/// A vertex of a mesh as the page shader reads it: where, and which point of the picture with its light (front,
/// back) beside it. KWin 5.27's vertex buffers carry two attributes: the light rides in the texture coordinate's
/// z and w, which KWin's own texture shader ignores.
struct MeshVertex {
    float x, y, u, v, front, back;
};

/// The vertex shader of Segue's own shaders: a vertex's place through KWin's matrix, its texture coordinate, and
/// two more values in the texture coordinate's z and w (a mesh vertex's light, front and back; or a layer's
/// point in its own coordinates), passed on as `extra`.
const QByteArray quadVertexShader = R"(#version 140
uniform mat4 modelViewProjectionMatrix;
in vec4 position;
in vec4 texcoord;
out vec2 texcoord0;
out vec2 extra;
void main()
{
    texcoord0 = texcoord.st;
    extra = texcoord.pq;
    gl_Position = modelViewProjectionMatrix * position;
}
)";

/// A layer's map (3x3, container points to points, libsegue's segue_drawn_layer_t.map) as a matrix over the
/// output's pixels, where KWin draws at `scale` pixels a point: D m D^-1 with D = diag(scale, scale, 1), its
/// z flattened (the layer is drawn as seen, never clipped by depth; the GPU divides by W).
QMatrix4x4 pixelMap(const double *m, qreal scale)
{
    return QMatrix4x4(m[0], m[1], 0, m[2] * scale, m[3], m[4], 0, m[5] * scale, 0, 0, 0, 0, m[6] / scale, m[7] / scale, 0, m[8]);
}

/// Whether a layer's clip cuts anything: a rounded rectangle or an ellipse (an unknown shape is none).
bool clips(const segue_clip_t &clip) { return clip.shape == SEGUE_CLIP_ROUNDED_RECT || clip.shape == SEGUE_CLIP_ELLIPSE; }

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
/// A test hook's value: the environment variable's, or with @FILE, what FILE holds now (empty when it cannot be read).
QByteArray hook(const QByteArray &value)
{
    if (!value.startsWith('@')) {
        return value;
    }
    QFile file(QString::fromLocal8Bit(value.mid(1)));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
}
} // namespace

bool SegueEffect::supported()
{
    return effects->isOpenGLCompositing();
}

SegueEffect::SegueEffect()
{
    segue::PlayerOptions options;
    // The standard config (read as it appears, changes, breaks and vanishes; the built-in default plays while
    // there is none), followed; a compositor's thread has a frame to draw: it waits for a plugin asleep.
    options.flags = SEGUE_PLAYER_STANDARD_CONFIG | SEGUE_PLAYER_WATCH | SEGUE_PLAYER_NO_SPIN;
    options.on_event = [](const segue_event_t &event) {
        const QString text = QString::fromUtf8(event.message);
        if (event.level >= SEGUE_LOG_WARNING) {
            qCWarning(SEGUE_EFFECT).noquote() << text;
        } else {
            qCInfo(SEGUE_EFFECT).noquote() << text;
        }
    };
    try {
        m_player = std::make_unique<segue::Player>(std::move(options));
    } catch (const segue::Error &error) {
        qCWarning(SEGUE_EFFECT).noquote() << "segue: cannot play animators:" << error.what();
        return;
    }
    // Reloads of the config and the plugin folders arrive through libsegue's descriptor.
    m_notifier = std::make_unique<QSocketNotifier>(m_player->fd(), QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, [this]() {
        m_player->dispatch();
    });
    m_holdAt = qgetenv("SEGUE_KWIN_HOLD_AT");
    m_look = hook(qgetenv("SEGUE_KWIN_LOOK")) != "0";
    connect(effects, &EffectsHandler::windowAdded, this, &SegueEffect::windowAdded);
    connect(effects, &EffectsHandler::windowClosed, this, &SegueEffect::windowClosed);
    connect(effects, &EffectsHandler::windowMinimized, this, &SegueEffect::windowMinimized);
    connect(effects, &EffectsHandler::windowUnminimized, this, &SegueEffect::windowUnminimized);
    connect(effects, &EffectsHandler::windowDataChanged, this, &SegueEffect::windowDataChanged);
    connect(effects, &EffectsHandler::windowDamaged, this, [this](EffectWindow *w) {
        if (auto it = m_running.find(w); it != m_running.end()) {
            it->second.stale = true;
        }
    });
    qCInfo(SEGUE_EFFECT) << "segue: playing window animators";
}

SegueEffect::~SegueEffect()
{
    // Every window still animating is released as it is: drawn normally, or let go if deleted.
    while (!m_running.empty()) {
        end(m_running.begin()->first, false);
    }
}

double SegueEffect::holdAt() const
{
    const QByteArray fraction = hook(m_holdAt);
    if (fraction.isEmpty()) {
        return -1;
    }
    bool ok = false;
    const double value = fraction.toDouble(&ok);
    return ok ? value : -1;
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
    // KWin's texture shader, with each vertex's light (libsegue's segue_mesh_light, front and back) and Segue's
    // page shading (segue_page_shading_glsl): lit by its angle where the page faces the viewer; where a triangle
    // is seen from behind, the front washed out, in the back's light. The picture is premultiplied.
    static const QByteArray fragment = QByteArray("#version 140\n") + segue::page_shading_glsl() + R"(
uniform sampler2D sampler;
uniform vec4 modulation;
uniform float saturation;
in vec2 texcoord0;
in vec2 extra; // the vertex's light: front, back
out vec4 fragColor;
void main()
{
    vec4 c = texture(sampler, texcoord0);
    c = gl_FrontFacing ? segue_page_lit(c, extra.x) : segue_page_lit(segue_page_back(c), extra.y);
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
                                                                  quadVertexShader, fragment);
    if (shader && shader->isValid()) {
        m_pageShader = std::move(shader);
    } else {
        qCWarning(SEGUE_EFFECT) << "segue: a page is drawn unlit, its back as its front: the page shader did not compile";
    }
    return m_pageShader.get();
}

bool SegueEffect::cut(const Running &running) const
{
    return running.corner > 0 || clips(running.clip);
}

GLShader *SegueEffect::lookShader(bool shadow)
{
    if (!m_lookShadersTried) {
        m_lookShadersTried = true;
        if (GLPlatform::instance()->isGLES() || GLPlatform::instance()->glslVersion() < kVersionNumber(1, 40)) {
            qCWarning(SEGUE_EFFECT) << "segue: layers are drawn without their clip, corners and shadow: they need GLSL 1.40";
            return nullptr;
        }
        // Both draw a quad in the layer's plane through its map; each vertex carries its point of the layer's own
        // coordinates (quadVertexShader's `extra`), so the shapes below move with the layer, in perspective too.
        // The shapes' signed distances (negative inside), as Segue's renderer works them out (Masks.swift): exact
        // for a rounded rectangle, the usual first-order estimate for an ellipse; in the layer's points.
        static const QByteArray shapes = R"(#version 140
uniform vec2 segue_size;
uniform float segue_corner;
uniform int segue_shape;
uniform vec4 segue_clip_rect;
uniform vec4 segue_clip_radii;
uniform float segue_pixel;
in vec2 texcoord0;
in vec2 extra; // the fragment's point in the layer's own coordinates
out vec4 fragColor;
float segue_rounded_box(vec2 p, vec2 half_size, float radius)
{
    vec2 q = abs(p) - (half_size - vec2(radius));
    float outside = (q.x > 0.0 && q.y > 0.0) ? length(q) : max(max(q.x, q.y), 0.0);
    return outside + min(max(q.x, q.y), 0.0) - radius;
}
float segue_clip_distance(vec2 p)
{
    vec2 h = segue_clip_rect.zw * 0.5;
    if (h.x <= 0.0 || h.y <= 0.0) {
        return 1e9;
    }
    vec2 c = p - (segue_clip_rect.xy + h);
    if (segue_shape == 1) {
        vec4 r = segue_clip_radii;
        return segue_rounded_box(c, h, c.x < 0.0 ? (c.y < 0.0 ? r.x : r.w) : (c.y < 0.0 ? r.y : r.z));
    }
    float k0 = length(c / h), k1 = length(c / (h * h));
    return k1 > 1e-12 ? k0 * (k0 - 1.0) / k1 : -min(h.x, h.y);
}
)";
        // The window: its picture (premultiplied) covered by the clip, and within its frame by its rounded corners
        // (its decoration's shadow, outside the frame, is cut by the clip only), anti-aliased over a pixel.
        static const QByteArray window = shapes + R"(
uniform sampler2D sampler;
uniform vec4 modulation;
uniform float saturation;
void main()
{
    vec2 point = extra;
    float cover = 1.0;
    if (segue_shape != 0) {
        cover = clamp(0.5 - segue_clip_distance(point) / segue_pixel, 0.0, 1.0);
    }
    if (segue_corner > 0.0 && all(greaterThanEqual(point, vec2(0.0))) && all(lessThanEqual(point, segue_size))) {
        cover *= clamp(0.5 - segue_rounded_box(point - segue_size * 0.5, segue_size * 0.5, segue_corner) / segue_pixel, 0.0, 1.0);
    }
    vec4 c = texture(sampler, texcoord0);
    if (saturation != 1.0) {
        vec3 desaturated = c.rgb * vec3(0.30, 0.59, 0.11);
        desaturated = vec3(dot(desaturated, c.rgb));
        c.rgb = c.rgb * vec3(saturation) + desaturated * vec3(1.0 - saturation);
    }
    fragColor = c * modulation * cover;
}
)";
        // The shadow: the silhouette (the frame's rounded rectangle, cut to the clip) blurred by a Gaussian of
        // deviation segue_sigma: Φ(-d/σ) across an edge, as a smootherstep over ±2.6σ, as Segue's renderer has it.
        static const QByteArray shadow = shapes + R"(
uniform vec4 segue_color;
uniform float segue_sigma;
void main()
{
    vec2 point = extra;
    float d = segue_rounded_box(point - segue_size * 0.5, segue_size * 0.5, segue_corner);
    if (segue_shape != 0) {
        d = max(d, segue_clip_distance(point));
    }
    float t = clamp(0.5 - d / (5.2 * segue_sigma), 0.0, 1.0);
    fragColor = segue_color * (t * t * t * (t * (t * 6.0 - 15.0) + 10.0));
}
)";
        effects->makeOpenGLContextCurrent();
        const QByteArray fragments[2] = {window, shadow};
        for (int k = 0; k < 2; ++k) {
            auto made = ShaderManager::instance()->generateCustomShader(k == 0 ? ShaderTrait::MapTexture | ShaderTrait::Modulate | ShaderTrait::AdjustSaturation
                                                                              : ShaderTrait::UniformColor,
                                                                     quadVertexShader, fragments[k]);
            if (!made || !made->isValid()) {
                qCWarning(SEGUE_EFFECT) << "segue: layers are drawn without their clip, corners and shadow: a shader did not compile";
                m_lookShaders[0].reset();
                m_lookShaders[1].reset();
                break;
            }
            m_lookShaders[k] = std::move(made);
        }
    }
    return m_lookShaders[shadow ? 1 : 0].get();
}

void SegueEffect::drawLook(EffectWindow *w, Running &running, bool shadow, const QRegion &region, const WindowPaintData &data)
{
    GLShader *shader = lookShader(shadow);
    const segue_rect_t f = running.frame, r = running.resting;
    if (!shader || f.width <= 0 || f.height <= 0 || r.width <= 0 || r.height <= 0) {
        return;
    }
    // The layer's own coordinates from the window's content at rest (container points): scaled onto its frame.
    const double sx = f.width / r.width, sy = f.height / r.height;
    const double *m = running.map;
    auto seen = [m](double x, double y) {
        const double W = m[6] * x + m[7] * y + m[8];
        return QPointF((m[0] * x + m[1] * y + m[2]) / W, (m[3] * x + m[4] * y + m[5]) / W);
    };
    // The layer's points per pixel at its centre (as Segue's renderer has it): from the map's Jacobian there.
    const qreal scale = effects->renderTargetScale();
    const double cx = r.x + r.width / 2, cy = r.y + r.height / 2;
    const QPointF o = seen(cx, cy), ex = seen(cx + 1 / sx, cy) - o, ey = seen(cx, cy + 1 / sy) - o;
    const double jacobian = std::abs(ex.x() * ey.y() - ex.y() * ey.x()) * scale * scale;
    const double pixel = jacobian > 1e-12 ? 1 / std::sqrt(jacobian) : 1;
    const double corner = std::min({running.corner, f.width / 2, f.height / 2});
    const double sigma = std::max(running.shadow.radius / 2 * pixel * scale, pixel / 3);

    // The quad in the layer's coordinates: the window's picture (its expanded geometry), or its frame grown by
    // the shadow's reach. Vertices in the window's content at rest, drawn through the map.
    QRectF quad;
    if (shadow) {
        const double grow = 3 * sigma + 2 * pixel;
        quad = QRectF(-grow, -grow, f.width + 2 * grow, f.height + 2 * grow);
    } else {
        const QRectF e = w->expandedGeometry();
        quad = QRectF((e.x() - r.x) * sx, (e.y() - r.y) * sy, e.width() * sx, e.height() * sy);
    }
    QMatrix4x4 texture;
    QRectF expanded;
    if (!shadow) {
        texture = running.picture->matrix(NormalizedCoordinates);
        expanded = w->expandedGeometry();
    }
    GLVertexBuffer *vbo = GLVertexBuffer::streamingBuffer();
    vbo->reset();
    const GLVertexAttrib layout[] = {
        {VA_Position, 2, GL_FLOAT, offsetof(MeshVertex, x)},
        {VA_TexCoord, 4, GL_FLOAT, offsetof(MeshVertex, u)}, // the picture's u, v; the layer's point
    };
    vbo->setAttribLayout(layout, 2, sizeof(MeshVertex));
    auto *vertices = static_cast<MeshVertex *>(vbo->map(6 * sizeof(MeshVertex)));
    const QPointF corners[6] = {quad.topLeft(), quad.topRight(), quad.bottomRight(), quad.topLeft(), quad.bottomRight(), quad.bottomLeft()};
    for (int k = 0; k < 6; ++k) {
        const double x = r.x + corners[k].x() / sx, y = r.y + corners[k].y() / sy; // the content at rest
        QVector4D uv;
        if (!shadow) {
            uv = texture * QVector4D((x - expanded.x()) / expanded.width(), (y - expanded.y()) / expanded.height(), 0, 1);
        }
        vertices[k] = MeshVertex{float((x - w->x()) * scale), float((y - w->y()) * scale), uv.x(), uv.y(), float(corners[k].x()), float(corners[k].y())};
    }
    vbo->unmap();
    vbo->bindArrays();

    ShaderBinder binder(shader);
    // The window's projection is the map's (paintWindow); the shadow is moved by its offset after it.
    QMatrix4x4 mvp = data.projectionMatrix();
    if (shadow) {
        QMatrix4x4 offset;
        offset.translate(running.shadow.offset_x * scale, running.shadow.offset_y * scale);
        mvp = m_projection * offset * pixelMap(m, scale);
    }
    mvp.translate(w->x() * scale, w->y() * scale);
    shader->setUniform(GLShader::ModelViewProjectionMatrix, mvp * data.toMatrix(scale));
    shader->setUniform("segue_size", QVector2D(f.width, f.height));
    shader->setUniform("segue_corner", float(corner));
    shader->setUniform("segue_shape", clips(running.clip) ? int(running.clip.shape) : 0);
    const segue_rect_t c = running.clip.rect;
    const segue_corner_radii_t radii = running.clip.radii;
    shader->setUniform("segue_clip_rect", QVector4D(c.x, c.y, c.width, c.height));
    shader->setUniform("segue_clip_radii", QVector4D(radii.top_left, radii.top_right, radii.bottom_right, radii.bottom_left));
    shader->setUniform("segue_pixel", float(pixel));
    if (shadow) {
        // Premultiplied, faded with the layer (its alpha is in the window's opacity).
        const double a = running.shadow.opacity * data.opacity();
        shader->setUniform("segue_color", QVector4D(running.shadow.red * a, running.shadow.green * a, running.shadow.blue * a, a));
        shader->setUniform("segue_sigma", float(sigma));
    } else {
        const qreal rgb = data.brightness() * data.opacity();
        shader->setUniform(GLShader::ModulationConstant, QVector4D(rgb, rgb, rgb, data.opacity()));
        shader->setUniform(GLShader::Saturation, data.saturation());
        running.picture->bind();
    }
    const bool clipping = region != infiniteRegion();
    if (clipping) {
        glEnable(GL_SCISSOR_TEST);
    }
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    vbo->draw(clipping ? effects->mapToRenderTarget(region) : infiniteRegion(), GL_TRIANGLES, 0, 6, clipping);
    glDisable(GL_BLEND);
    if (clipping) {
        glDisable(GL_SCISSOR_TEST);
    }
    if (!shadow) {
        running.picture->unbind();
    }
    vbo->unbindArrays();
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

// The window's type as the animator ABI names it (segue_window_type_t), from KWin's own.
static uint32_t windowType(const EffectWindow *w)
{
    if (w->isDialog()) {
        return SEGUE_WINDOW_DIALOG;
    }
    if (w->isUtility()) {
        return SEGUE_WINDOW_UTILITY;
    }
    if (w->isNotification() || w->isCriticalNotification()) {
        return SEGUE_WINDOW_NOTIFICATION;
    }
    if (w->isMenu() || w->isPopupMenu() || w->isDropdownMenu()) {
        return SEGUE_WINDOW_MENU;
    }
    if (w->isTooltip()) {
        return SEGUE_WINDOW_TOOLTIP;
    }
    if (w->isSplash()) {
        return SEGUE_WINDOW_SPLASH;
    }
    if (w->isDock()) {
        return SEGUE_WINDOW_DOCK;
    }
    return SEGUE_WINDOW_NORMAL;
}

void SegueEffect::begin(EffectWindow *w, Change change)
{
    // KWin's platform contract, as its own effects keep it: the change happens at once, or another effect plays it.
    if (const QString why = leftAlone(w, change); !why.isEmpty()) {
        qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1 %2, not animated: %3").arg(QString::fromStdString(name(w)), beginning(change), why);
        return;
    }
    const QRectF frame = w->frameGeometry(), screens = effects->virtualScreenGeometry();
    if (!m_player || frame.width() <= 0 || frame.height() <= 0) {
        return;
    }
    // The window is the arriving view of an appearance, the leaving one of a disappearance; what is beneath it
    // (the desktop) is left out: a transparent stand-in. Rules match the window's name either way.
    const bool appears = !leaves(change);
    const std::string id = name(w);
    segue_transition_desc_t desc{};
    desc.kind = appears ? SEGUE_TRANSITION_APPEAR : SEGUE_TRANSITION_DISAPPEAR;
    desc.bounds = segue_rect_t{0, 0, screens.x() + screens.width(), screens.y() + screens.height()};
    const segue_view_t window{id.c_str(), rect(frame), nullptr, 0}, beneath{nullptr, segue_rect_t{}, nullptr, 0};
    desc.from = appears ? beneath : window;
    desc.to = appears ? window : beneath;
    desc.going_right = appears;
    // What KWin knows of where the window comes from or goes to (libsegue 1.5): a minimize's task-bar entry (its
    // icon geometry, which a task manager sets; empty when none did) and the pointer; and the window's type.
    const QRectF icon = w->iconGeometry();
    if ((change == Change::Minimize || change == Change::Unminimize) && icon.width() > 0 && icon.height() > 0) {
        desc.anchor.has_rect = true;
        desc.anchor.rect = rect(icon);
    }
    const QPointF pointer = effects->cursorPos();
    desc.anchor.has_point = true;
    desc.anchor.point_x = pointer.x();
    desc.anchor.point_y = pointer.y();
    desc.window_type = windowType(w);
    desc.modal = w->isModal();
    std::unique_ptr<segue::Transition> transition;
    segue::Plan plan;
    std::unique_ptr<segue::Sampler> sampler;
    try {
        transition = std::make_unique<segue::Transition>(m_player->begin(desc));
        plan = transition->plan();
        sampler = std::make_unique<segue::Sampler>(*transition);
    } catch (const segue::Error &error) {
        qCWarning(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1: %2").arg(QString::fromStdString(id), QString::fromUtf8(error.what()));
        return;
    }
    // The speed the user chose in System Settings, as KWin's effects scale their times (Effect::animationTime).
    const double factor = effects->animationTimeFactor();
    // Said for people reading KWin's log, and for the tests: the window, where it is, the animator, how long and why.
    qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1 %2 at %3,%4 %5x%6: %7 for %8 s (the animator's %9 s x %10, the desktop's animation speed; %11)")
                                          .arg(QString::fromStdString(id), beginning(change))
                                          .arg(frame.x()).arg(frame.y()).arg(frame.width()).arg(frame.height())
                                          .arg(QString::fromStdString(plan.animator))
                                          .arg(plan.duration * factor)
                                          .arg(plan.duration)
                                          .arg(factor)
                                          .arg(QString::fromStdString(plan.reason));
    // Once per name a session: the name rules see, which may differ from what the user wrote (see nameOrigin).
    if (m_named.insert(id).second) {
        qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: window '%1' (%2; rules match this name) %3 with %4: %5")
                                              .arg(QString::fromStdString(id), nameOrigin(w), beginning(change),
                                                   QString::fromStdString(plan.animator), QString::fromStdString(plan.reason));
    }
    // What the animator was told of where the window comes from or goes to, and what it is.
    QString told = QStringLiteral("the pointer at %1,%2").arg(pointer.x()).arg(pointer.y());
    if (desc.anchor.has_rect) {
        told += QStringLiteral(", the task-bar entry at %1,%2 %3x%4").arg(icon.x()).arg(icon.y()).arg(icon.width()).arg(icon.height());
    }
    qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1 %2: the animator is told %3; window type %4%5")
                                          .arg(QString::fromStdString(id), beginning(change), told)
                                          .arg(desc.window_type)
                                          .arg(desc.modal ? QStringLiteral(", modal") : QString());
    Running &running = m_running[w];
    running.hold = holdAt();
    running.transition = std::move(transition);
    running.sampler = std::move(sampler);
    running.duration = plan.duration;
    running.animator = plan.animator;
    running.bounds = desc.bounds;
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
    Running &running = it->second;
    if (w->data(grabRole(running.change)).value<void *>() == this) {
        w->setData(grabRole(running.change), QVariant());
    }
    std::string reason;
    try {
        reason = running.transition->finish(completed).reason;
    } catch (const segue::Error &error) {
        reason = error.what();
    }
    const double perFrame = running.frames ? std::chrono::duration<double, std::micro>(running.busy).count() / running.frames : 0;
    qCInfo(SEGUE_EFFECT).noquote() << QStringLiteral("segue: %1 %2: %3 (%4); %5 frames in %6 s, the effect's own time %7 us a frame (the window drawn offscreen %8 times)")
                                          .arg(QString::fromStdString(name(w)), ending(running.change),
                                               completed ? QStringLiteral("completed") : QStringLiteral("cut short"),
                                               QString::fromStdString(reason))
                                          .arg(running.frames)
                                          .arg(running.elapsed, 0, 'f', 3)
                                          .arg(perFrame, 0, 'f', 1)
                                          .arg(running.pictures);
    if (running.picture) {
        effects->makeOpenGLContextCurrent(); // the picture's texture and framebuffer go with it
    }
    m_running.erase(it); // drops the references: a closed window goes now
    effects->addRepaintFull();
}

void SegueEffect::sample(Running &running)
{
    try {
        running.sampler->sample(std::min(running.t, running.duration));
    } catch (const segue::Error &) {
        return; // finished: the last pose stays
    }
    // The window is the description's `to` when opening, its `from` when closing; the plan names those sides.
    const uint32_t window = leaves(running.change) ? SEGUE_LAYER_FROM_VIEW : SEGUE_LAYER_TO_VIEW;
    for (const segue_drawn_layer_t &layer : running.sampler->layers()) {
        if (layer.request.kind != window) {
            continue;
        }
        running.visible = layer.visible;
        running.alpha = layer.state.alpha;
        running.meshed = layer.has_mesh;
        if (!running.meshed) {
            std::copy(layer.map, layer.map + 9, running.map);
            running.frame = layer.state.frame;
            running.resting = layer.resting_frame;
            running.clip = layer.state.clip;
            running.corner = layer.state.corner_radius;
            running.shadow = layer.state.shadow;
        } else if (!running.mesh.update(layer, running.bounds)) {
            running.visible = false; // behind the eye, or nothing to draw
        }
        return;
    }
}

void SegueEffect::prePaintScreen(ScreenPrePaintData &data, std::chrono::milliseconds presentTime)
{
    for (auto &[w, running] : m_running) {
        if (running.start.count() < 0) {
            running.start = presentTime;
        }
        const double duration = running.duration;
        running.elapsed = (presentTime - running.start).count() / 1000.0;
        running.t = running.hold >= 0 ? running.hold * duration : running.elapsed / running.factor;
        // KWin's presentation times are whole milliseconds: a frame within 2 ms of the time asked for
        // ahead shows that time, whose answer is ready.
        if (running.prefetched >= 0 && std::abs(running.t - running.prefetched) * running.factor <= 0.002) {
            running.t = running.prefetched;
        }
        // One sample a frame, bounded by the player's sample bound: a late plugin's last pose is kept.
        const auto began = std::chrono::steady_clock::now();
        sample(running);
        running.busy += std::chrono::steady_clock::now() - began;
        running.frames += 1;
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
        const Running &running = it->second;
        if (!running.visible) {
            return;
        }
        data.multiplyOpacity(std::clamp(running.alpha, 0.0, 1.0));
        if (!running.meshed) {
            // The window's points at rest (in the output's pixels, as KWin draws them), through the layer's
            // map, then as the scene projects the output.
            data.setProjectionMatrix(m_projection * pixelMap(running.map, effects->renderTargetScale()));
        }
    }
    effects->paintWindow(w, mask, region, data);
}

void SegueEffect::drawPicture(EffectWindow *w, Running &running)
{
    // The window with its decoration and shadow (its expanded geometry), at the output's scale, as KWin's own
    // OffscreenEffect draws a window to deform it. KWin draws a window in the output's pixels (points times
    // the scale), so the picture's projection spans its pixels, not the window's points.
    const QRectF expanded = w->expandedGeometry();
    QSize size = expanded.toAlignedRect().size();
    if (const EffectScreen *screen = w->screen()) {
        size *= screen->devicePixelRatio();
    }
    if (!running.picture || running.picture->size() != size) {
        running.picture = std::make_unique<GLTexture>(GL_RGBA8, size);
        running.picture->setFilter(GL_LINEAR);
        running.picture->setWrapMode(GL_CLAMP_TO_EDGE);
        running.target = std::make_unique<GLFramebuffer>(running.picture.get());
        running.stale = true;
    }
    if (!running.stale) {
        return;
    }
    GLFramebuffer::pushFramebuffer(running.target.get());
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    QMatrix4x4 projection;
    projection.ortho(QRectF(0, 0, size.width(), size.height()));
    WindowPaintData data;
    data.setXTranslation(-expanded.x());
    data.setYTranslation(-expanded.y());
    data.setOpacity(1.0);
    data.setProjectionMatrix(projection);
    effects->drawWindow(w, PAINT_WINDOW_TRANSFORMED | PAINT_WINDOW_TRANSLUCENT, infiniteRegion(), data);
    GLFramebuffer::popFramebuffer();
    running.stale = false;
    running.pictures += 1;
}

void SegueEffect::drawWindow(EffectWindow *w, int mask, const QRegion &region, WindowPaintData &data)
{
    auto it = m_running.find(w);
    if (it != m_running.end() && !it->second.meshed && m_look) {
        // A flat layer: its shadow under it, then the window cut to its clip and corners, or as KWin draws it.
        Running &running = it->second;
        const auto began = std::chrono::steady_clock::now();
        if (running.shadow.opacity > 0) {
            drawLook(w, running, true, region, data);
        }
        if (cut(running) && lookShader(false)) {
            drawPicture(w, running);
            drawLook(w, running, false, region, data);
            running.busy += std::chrono::steady_clock::now() - began;
            return;
        }
        running.busy += std::chrono::steady_clock::now() - began;
    }
    if (it == m_running.end() || !it->second.meshed || it->second.mesh.vertex_count() == 0) {
        effects->drawWindow(w, mask, region, data); // a flat layer (through its matrix), or no pose yet
        return;
    }
    const auto began = std::chrono::steady_clock::now();
    Running &running = it->second;
    drawPicture(w, running);
    const segue::LitMesh &mesh = running.mesh;
    // The mesh's triangles, in the grid's order (each over the ones before: a page curling over itself covers
    // itself), made once for the grid's size.
    if (mesh.columns != m_gridColumns || mesh.rows != m_gridRows) {
        m_grid.resize(6 * size_t(mesh.columns) * mesh.rows);
        segue_grid_indices(mesh.columns, mesh.rows, m_grid.data(), uint32_t(m_grid.size()));
        m_gridColumns = mesh.columns;
        m_gridRows = mesh.rows;
    }
    // The mesh is in the output's coordinates over the window's frame; the picture covers the window's
    // expanded geometry (its shadow included), upside down or not as the texture says.
    const QRectF frame = w->frameGeometry(), expanded = w->expandedGeometry();
    const double u0 = (frame.x() - expanded.x()) / expanded.width(), v0 = (frame.y() - expanded.y()) / expanded.height();
    const double us = frame.width() / expanded.width(), vs = frame.height() / expanded.height();
    const QMatrix4x4 texture = running.picture->matrix(NormalizedCoordinates);
    const qreal scale = effects->renderTargetScale();

    GLShader *shader = pageShader();
    ShaderBinder binder(shader ? shader : ShaderManager::instance()->shader(ShaderTrait::MapTexture | ShaderTrait::Modulate | ShaderTrait::AdjustSaturation));
    GLVertexBuffer *vbo = GLVertexBuffer::streamingBuffer();
    vbo->reset();
    const GLVertexAttrib layout[] = {
        {VA_Position, 2, GL_FLOAT, offsetof(MeshVertex, x)},
        {VA_TexCoord, 4, GL_FLOAT, offsetof(MeshVertex, u)}, // u, v, front, back
    };
    vbo->setAttribLayout(layout, 2, sizeof(MeshVertex));
    auto *vertices = static_cast<MeshVertex *>(vbo->map(m_grid.size() * sizeof(MeshVertex)));
    for (size_t k = 0; k < m_grid.size(); ++k) {
        const size_t i = size_t(m_grid[k]);
        const QVector4D uv = texture * QVector4D(u0 + mesh.uv[2 * i] * us, v0 + mesh.uv[2 * i + 1] * vs, 0, 1);
        vertices[k] = MeshVertex{float((mesh.xy[2 * i] - w->x()) * scale), float((mesh.xy[2 * i + 1] - w->y()) * scale),
                                 uv.x(), uv.y(), mesh.front[i], mesh.back[i]};
    }
    vbo->unmap();
    vbo->bindArrays();
    QMatrix4x4 mvp = data.projectionMatrix();
    mvp.translate(w->x() * scale, w->y() * scale);
    binder.shader()->setUniform(GLShader::ModelViewProjectionMatrix, mvp * data.toMatrix(scale));
    const qreal rgb = data.brightness() * data.opacity();
    binder.shader()->setUniform(GLShader::ModulationConstant, QVector4D(rgb, rgb, rgb, data.opacity()));
    binder.shader()->setUniform(GLShader::Saturation, data.saturation());
    const bool clipping = region != infiniteRegion();
    if (clipping) {
        glEnable(GL_SCISSOR_TEST);
    }
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    running.picture->bind();
    vbo->draw(clipping ? effects->mapToRenderTarget(region) : infiniteRegion(), GL_TRIANGLES, 0, int(m_grid.size()), clipping);
    running.picture->unbind();
    glDisable(GL_BLEND);
    if (clipping) {
        glDisable(GL_SCISSOR_TEST);
    }
    vbo->unbindArrays();
    running.busy += std::chrono::steady_clock::now() - began;
}

void SegueEffect::postPaintScreen()
{
    std::vector<EffectWindow *> done;
    for (auto &[w, running] : m_running) {
        if (running.hold < 0 && running.t >= running.duration) {
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
        const double next = running.hold >= 0 ? running.t : std::min(running.t + 1 / refresh / running.factor, running.duration);
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
