#include "seguecore.h"

#include <QDebug>
#include <QPainter>
#include <QPainterPath>
#include <QSocketNotifier>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace segueqt {

static void onEvent(void *, const segue_event_t *event) {
    // libsegue has escaped what a plugin wrote.
    if (event->level >= SEGUE_LOG_WARNING || event->kind == SEGUE_EVENT_CONFIG_ERROR || event->kind == SEGUE_EVENT_FELL_BACK)
        qWarning("Segue: %s", event->message);
    else
        qDebug("Segue: %s", event->message);
}

Player::Player(const QString &configFile, QObject *parent) : QObject(parent) {
    QByteArray config = configFile.toUtf8();
    segue_player_options_t options;
    std::memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.config_path = configFile.isEmpty() ? nullptr : config.constData();
    // The GUI thread has other work: a sample the prefetch did not answer waits asleep, not spinning
    // (the spin was a tenth of a SpringSlide frame's CPU time in the benchmark).
    options.flags = SEGUE_PLAYER_WATCH | SEGUE_PLAYER_STANDARD_CONFIG | SEGUE_PLAYER_NO_SPIN;
    options.on_event = onEvent;
    if (segue_player_new(&options, &m_player) != SEGUE_OK) {
        m_error = QString::fromUtf8(segue_error_message());
        qWarning("Segue's player could not start (%s); pages switch without transitions", qPrintable(m_error));
        m_player = nullptr;
        return;
    }
    segue_player_dispatch(m_player);
    m_notifier = new QSocketNotifier(segue_player_fd(m_player), QSocketNotifier::Read, this);
    QObject::connect(m_notifier, &QSocketNotifier::activated, this, [this] { segue_player_dispatch(m_player); });
}

Player::~Player() {
    delete m_notifier;
    segue_player_free(m_player);
}

Transition *Transition::begin(segue_player_t *player, QSize size, const QString &from, const QString &to, bool goingRight,
                              bool interactive, const QString &animator, QString *error) {
    QByteArray fromName = from.toUtf8(), toName = to.toUtf8(), chosen = animator.toUtf8();
    segue_transition_desc_t desc;
    std::memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.bounds = segue_rect_t { 0, 0, double(size.width()), double(size.height()) };
    desc.from = segue_view_t { fromName.constData(), desc.bounds, nullptr, 0 };
    desc.to = segue_view_t { toName.constData(), desc.bounds, nullptr, 0 };
    desc.going_right = goingRight;
    desc.interactive = interactive;
    desc.animator = animator.isEmpty() ? nullptr : chosen.constData();
    segue_transition_t *handle = nullptr;
    if (segue_transition_begin(player, &desc, &handle) != SEGUE_OK) {
        *error = QString::fromUtf8(segue_error_message());
        return nullptr;
    }
    auto *t = new Transition;
    t->m_transition = handle;
    t->m_size = size;
    t->m_plan.struct_size = sizeof t->m_plan;
    segue_transition_plan(handle, &t->m_plan);
    if (segue_sampler_new(handle, &t->m_sampler) != SEGUE_OK) t->m_sampler = nullptr;
    return t;
}

Transition::~Transition() {
    if (!m_finished) finish(false);
    segue_sampler_free(m_sampler);  // before its transition
    segue_transition_free(m_transition);
}

bool Transition::sample(double t) {
    if (!m_sampler) return false;
    uint32_t count = 0;
    bool changed = false;
    segue_status_t status = segue_sampler_sample(m_sampler, t, &count, &changed);
    if (status < 0) {
        qWarning("Segue: sampling the transition failed: %s", segue_error_message());
        return false;
    }
    m_late = status == SEGUE_LATE;
    if (changed) segue_transition_plan(m_transition, &m_plan);  // the default took over: its duration, its name
    m_layers.resize(int(count));
    for (uint32_t i = 0; i < count; i++) {
        m_layers[int(i)] = segue_drawn_layer_t {};
        m_layers[int(i)].struct_size = sizeof(segue_drawn_layer_t);
        segue_sampler_layer(m_sampler, i, &m_layers[int(i)]);
    }
    return true;
}

Report Transition::finish(bool completed) {
    if (m_finished) return m_report;
    m_finished = true;
    segue_transition_report_t report;
    std::memset(&report, 0, sizeof report);
    report.struct_size = sizeof report;
    segue_transition_finish(m_transition, completed, &report);
    m_report.animator = QString::fromUtf8(report.animator ? report.animator : (m_plan.animator ? m_plan.animator : ""));
    m_report.completed = completed;
    m_report.fellBack = report.fell_back;
    m_report.reason = QString::fromUtf8(report.reason ? report.reason : "");
    return m_report;
}

QTransform transformOf(const double m[9]) { return QTransform(m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]); }

QImage backOf(const QImage &picture) {
    QImage back = picture.convertToFormat(QImage::Format_ARGB32);
    for (int y = 0; y < back.height(); y++) {
        QRgb *row = reinterpret_cast<QRgb *>(back.scanLine(y));
        for (int x = 0; x < back.width(); x++) {
            float rgba[4] = { qRed(row[x]) / 255.f, qGreen(row[x]) / 255.f, qBlue(row[x]) / 255.f, qAlpha(row[x]) / 255.f };
            segue_page_back(rgba, rgba);
            row[x] = qRgba(int(std::lround(rgba[0] * 255)), int(std::lround(rgba[1] * 255)), int(std::lround(rgba[2] * 255)), qAlpha(row[x]));
        }
    }
    return back.convertToFormat(QImage::Format_ARGB32_Premultiplied);
}

enum { Most = (SEGUE_MAX_MESH_DIVISIONS + 1) * (SEGUE_MAX_MESH_DIVISIONS + 1) };

bool projectMesh(const segue_drawn_layer_t &layer, QSizeF size, ProjectedMesh &mesh) {
    static thread_local std::vector<float> xy(2 * Most), uv(2 * Most), front(Most), behind(Most);
    static thread_local std::vector<int32_t> grid(6 * SEGUE_MAX_MESH_DIVISIONS * SEGUE_MAX_MESH_DIVISIONS);
    const segue_rect_t bounds { 0, 0, size.width(), size.height() };
    uint32_t columns = 0, rows = 0;
    const uint32_t count = segue_layer_project(&layer.state, &layer.request, &bounds, 1, xy.data(), uv.data(), Most, &columns, &rows);
    if (count == 0) return false;  // behind the eye
    if (segue_mesh_light(&layer.state, &layer.request, false, front.data(), Most) != count ||
        segue_mesh_light(&layer.state, &layer.request, true, behind.data(), Most) != count)
        return false;
    mesh = ProjectedMesh { xy.data(), uv.data(), front.data(), behind.data(), grid.data(), count,
                           segue_grid_indices(columns, rows, grid.data(), uint32_t(grid.size())) };
    return true;
}

int ProjectedMesh::facing(uint32_t k, const segue_rect_t &rest) const {
    const int32_t a = grid[k], b = grid[k + 1], c = grid[k + 2];
    auto texel = [&](int32_t i) { return QPointF(rest.x + uv[2 * i] * rest.width, rest.y + uv[2 * i + 1] * rest.height); };
    const double onScreen = (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) - (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a]);
    const QPointF s0 = texel(a), s1 = texel(b), s2 = texel(c);
    const double inPicture = (s1.x() - s0.x()) * (s2.y() - s0.y()) - (s1.y() - s0.y()) * (s2.x() - s0.x());
    return onScreen == 0 || inPicture == 0 ? -1 : (onScreen > 0) != (inPicture > 0) ? 1 : 0;
}

// The mesh's triangles: each the picture moved by the affine map that takes its texture corners to its
// corners on screen, clipped to it, darkened to its light (the mean of its vertices').
static void paintMesh(QPainter &painter, const segue_drawn_layer_t &layer, const QImage &picture, const QImage &back, QSize size) {
    ProjectedMesh mesh;
    if (!projectMesh(layer, size, mesh)) return;
    // The content is the picture of the layer's resting frame.
    const segue_rect_t rest = layer.resting_frame;
    const double sx = picture.width() / double(size.width()), sy = picture.height() / double(size.height());
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    const QTransform base = painter.transform();
    for (uint32_t k = 0; k + 2 < mesh.indices; k += 3) {
        const int facing = mesh.facing(k, rest);
        if (facing < 0) continue;
        const bool turned = facing == 1;
        int32_t i[3] = { mesh.grid[k], mesh.grid[k + 1], mesh.grid[k + 2] };
        QPointF p[3], s[3];
        for (int j = 0; j < 3; j++) {
            p[j] = QPointF(mesh.xy[2 * i[j]], mesh.xy[2 * i[j] + 1]);
            s[j] = QPointF((rest.x + mesh.uv[2 * i[j]] * rest.width) * sx, (rest.y + mesh.uv[2 * i[j] + 1] * rest.height) * sy);
        }
        // The affine map taking s[0..2] to p[0..2]: [a c e; b d f].
        double ux = s[1].x() - s[0].x(), uy = s[1].y() - s[0].y(), vx = s[2].x() - s[0].x(), vy = s[2].y() - s[0].y();
        double det = ux * vy - vx * uy;
        double px = p[1].x() - p[0].x(), py = p[1].y() - p[0].y(), qx = p[2].x() - p[0].x(), qy = p[2].y() - p[0].y();
        double a = (px * vy - qx * uy) / det, c = (qx * ux - px * vx) / det;
        double b = (py * vy - qy * uy) / det, d = (qy * ux - py * vx) / det;
        double e = p[0].x() - a * s[0].x() - c * s[0].y(), f = p[0].y() - b * s[0].x() - d * s[0].y();
        QPainterPath triangle;
        triangle.moveTo(p[0]);
        triangle.lineTo(p[1]);
        triangle.lineTo(p[2]);
        triangle.closeSubpath();
        const float *shades = turned ? mesh.behind : mesh.front;
        double shade = (shades[i[0]] + shades[i[1]] + shades[i[2]]) / 3.0;
        painter.setTransform(base);
        painter.setClipPath(triangle);
        painter.setTransform(QTransform(a, b, c, d, e, f) * base);
        // Over its pixels, as s[] has them: a picture grabbed on a HiDPI screen has a device pixel ratio, and
        // drawn at a point it would span its size in points, not in pixels.
        const QImage &drawn = turned && !back.isNull() ? back : picture;
        painter.drawImage(QRectF(0, 0, drawn.width(), drawn.height()), drawn);
        painter.setTransform(base);
        if (shade < 1) painter.fillPath(triangle, QColor::fromRgbF(0, 0, 0, std::min(1.0, std::max(0.0, 1 - shade))));
    }
    painter.restore();
}

// A rectangle of the layer's own coordinates (its frame's top-left at 0, 0) in the content's where it
// rests, scaled from the frame to the resting frame.
static QRectF resting(const segue_rect_t &r, const segue_rect_t &rest, double sx, double sy) {
    return QRectF(rest.x + r.x * sx, rest.y + r.y * sy, r.width * sx, r.height * sy);
}

// A rounded rectangle with each corner's radius (scaled by sx, sy: an elliptic corner).
static QPainterPath rounded(const QRectF &box, const double radii[4], double sx, double sy) {
    QPainterPath path;
    const double tl = radii[0], tr = radii[1], br = radii[2], bl = radii[3];
    path.moveTo(box.left() + tl * sx, box.top());
    path.lineTo(box.right() - tr * sx, box.top());
    path.arcTo(QRectF(box.right() - 2 * tr * sx, box.top(), 2 * tr * sx, 2 * tr * sy), 90, -90);
    path.lineTo(box.right(), box.bottom() - br * sy);
    path.arcTo(QRectF(box.right() - 2 * br * sx, box.bottom() - 2 * br * sy, 2 * br * sx, 2 * br * sy), 0, -90);
    path.lineTo(box.left() + bl * sx, box.bottom());
    path.arcTo(QRectF(box.left(), box.bottom() - 2 * bl * sy, 2 * bl * sx, 2 * bl * sy), 270, -90);
    path.lineTo(box.left(), box.top() + tl * sy);
    path.arcTo(QRectF(box.left(), box.top(), 2 * tl * sx, 2 * tl * sy), 180, -90);
    path.closeSubpath();
    return path;
}

bool lookOf(const segue_drawn_layer_t &layer, QPainterPath *path) {
    const segue_layer_state_t &state = layer.state;
    const segue_rect_t rest = layer.resting_frame, frame = state.frame;
    const double sx = frame.width > 0 ? rest.width / frame.width : 1, sy = frame.height > 0 ? rest.height / frame.height : 1;
    bool cut = false;
    QPainterPath shape;
    shape.addRect(QRectF(rest.x, rest.y, rest.width, rest.height));
    if (state.corner_radius > 0) {  // clamped by libsegue
        const double r[4] = { state.corner_radius, state.corner_radius, state.corner_radius, state.corner_radius };
        shape = rounded(QRectF(rest.x, rest.y, rest.width, rest.height), r, sx, sy);
        cut = true;
    }
    const segue_clip_t &clip = state.clip;
    if (clip.shape == SEGUE_CLIP_ROUNDED_RECT || clip.shape == SEGUE_CLIP_ELLIPSE) {
        const QRectF box = resting(clip.rect, rest, sx, sy);
        QPainterPath inner;
        if (clip.shape == SEGUE_CLIP_ELLIPSE) {
            inner.addEllipse(box);
        } else {
            const double r[4] = { clip.radii.top_left, clip.radii.top_right, clip.radii.bottom_right, clip.radii.bottom_left };
            inner = rounded(box, r, sx, sy);
        }
        shape = shape.intersected(inner);
        cut = true;
    }
    if (cut) *path = shape;
    return cut;
}

void paintLayer(QPainter &painter, const segue_drawn_layer_t &layer, const QImage &picture, const QImage &back, QSize size) {
    if (!layer.visible || picture.isNull()) return;
    const double alpha = std::min(1.0, std::max(0.0, layer.state.alpha));
    if (layer.has_mesh) {
        if (alpha >= 1) {
            paintMesh(painter, layer, picture, back, size);
        } else {
            // Drawn whole first, then at its alpha: its triangles must not show through one another.
            QImage whole(picture.size(), QImage::Format_ARGB32_Premultiplied);
            whole.fill(Qt::transparent);
            QPainter inner(&whole);
            inner.scale(picture.width() / double(size.width()), picture.height() / double(size.height()));
            paintMesh(inner, layer, picture, back, size);
            inner.end();
            painter.save();
            painter.setOpacity(alpha * painter.opacity());
            painter.drawImage(QRectF(0, 0, size.width(), size.height()), whole);
            painter.restore();
        }
        return;
    }
    const segue_rect_t rest = layer.resting_frame;
    if (rest.width <= 0 || rest.height <= 0) return;
    const QRectF at(rest.x, rest.y, rest.width, rest.height);
    const QRectF source(rest.x * picture.width() / size.width(), rest.y * picture.height() / size.height(),
                        rest.width * picture.width() / size.width(), rest.height * picture.height() / size.height());
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter.setTransform(transformOf(layer.map), true);
    painter.setOpacity(alpha * painter.opacity());
    QPainterPath look;
    if (lookOf(layer, &look)) {
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setClipPath(look);
    }
    painter.drawImage(at, picture, source);
    painter.restore();
}

double Playhead::time(double duration, double hold) {
    if (hold >= 0) return hold * duration;
    if (!interactive) return clock.nsecsElapsed() / 1e9;
    if (released) {
        double x = seconds > 0 ? qBound(0.0, clock.nsecsElapsed() / 1e9 / seconds, 1.0) : 1;
        double eased = linear ? x : segue_cubic_bezier_value(0.42, 0, 0.58, 1, x);
        fraction = origin + (target - origin) * eased;
    }
    return fraction * duration;
}

void Playhead::release(bool finish, double speed, double duration) {
    released = true;
    origin = fraction;
    target = finish ? 1 : 0;
    double distance = std::abs(target - origin), flick = std::isfinite(speed) ? std::abs(speed) : 0;
    seconds = distance * duration;
    linear = false;
    if (flick > 0 && distance / flick < seconds) {
        seconds = distance / flick;
        linear = true;
    }
    clock.restart();
}

}  // namespace segueqt
