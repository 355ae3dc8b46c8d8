// The part of Segue's Qt integration that the widget container and the QML module share: a player
// followed through Qt's event loop, one transition being played, and drawing its layers with QPainter.
// Everything here is libsegue's host helpers (the sampler, the map, the mesh projection, the page's light
// and back) put to Qt's types; no Segue logic of its own. Not a public API: compiled into each library.
#pragma once

#include <QElapsedTimer>
#include <QImage>
#include <QObject>
#include <QSize>
#include <QString>
#include <QTransform>
#include <QVector>

#include <segue/embed.h>

class QPainterPath;

class QPainter;
class QSocketNotifier;

namespace segueqt {

// A libsegue player made with the standard config (or `configFile`), watched: its descriptor is read
// through a QSocketNotifier that calls segue_player_dispatch on the thread that made it (Qt's main
// thread). Warnings and fallbacks go to qWarning, the rest to qDebug.
class Player : public QObject {
public:
    explicit Player(const QString &configFile, QObject *parent = nullptr);
    ~Player() override;
    // NULL when libsegue refused to start; error() says why.
    segue_player_t *handle() const { return m_player; }
    QString error() const { return m_error; }

private:
    segue_player_t *m_player = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    QString m_error;
};

// How a transition ended, as libsegue reports it.
struct Report {
    QString animator;
    bool completed = false;
    bool fellBack = false;
    QString reason;
};

// One transition between two pages of a container of `size`: its transition, its sampler and the
// layers of the last sample (back to front). Made on the main thread, sampled and drawn there.
class Transition {
public:
    // Begins a transition from page `from` to page `to` (names matched by the config's rules), with
    // `animator` (empty: the rules). NULL with `error` set when libsegue refused.
    static Transition *begin(segue_player_t *player, QSize size, const QString &from, const QString &to, bool goingRight,
                             bool interactive, const QString &animator, QString *error);
    ~Transition();  // finishes it as not completed if finish() was not called

    double duration() const { return m_plan.duration; }
    QString animator() const { return QString::fromUtf8(m_plan.animator ? m_plan.animator : ""); }
    // Whether a layer of the plan has a mesh (CurlUp's page).
    bool hasMesh() const {
        for (uint32_t i = 0; i < m_plan.layer_count; i++) {
            if (m_plan.layers[i].mesh_columns > 0) return true;
        }
        return false;
    }
    // Samples at `t` seconds; false when sampling failed (the layers are then left as they were).
    bool sample(double t);
    // Asks the plugin for the states at `t` now, so that the next frame's sample finds them ready.
    void prefetch(double t) { segue_transition_prefetch(m_transition, t); }
    // Whether the last sample held older states because the plugin had not answered within the bound.
    bool late() const { return m_late; }
    const QVector<segue_drawn_layer_t> &layers() const { return m_layers; }
    QSize size() const { return m_size; }
    Report finish(bool completed);

private:
    Transition() = default;
    segue_transition_t *m_transition = nullptr;
    segue_sampler_t *m_sampler = nullptr;
    segue_plan_info_t m_plan {};
    QVector<segue_drawn_layer_t> m_layers;
    QSize m_size;
    Report m_report;
    bool m_finished = false;
    bool m_late = false;
};

// Where a transition is played: by its clock, or for a gesture at the fraction the finger is at and,
// once released, on its way to the end or back (ease-in-out over the rest of the duration, or linearly
// at the flick's speed when that is sooner, as the GTK widget plays it).
struct Playhead {
    bool interactive = false, released = false, linear = false;
    double fraction = 0, origin = 0, target = 1, seconds = 0;
    QElapsedTimer clock;
    // The time to sample, in seconds: `hold` of `duration` when held (hold >= 0), else as above.
    double time(double duration, double hold);
    // Lets the gesture go toward the end (`finish`) or back, at `speed` (fractions a second; NaN: none).
    void release(bool finish, double speed, double duration);
    // Whether a released gesture has arrived where it was going.
    bool arrived() const { return released && fraction == target; }
};

// A flat layer's map (libsegue's row-major 3x3, content at rest to container) as a QTransform, whose
// x' = m11 x + m21 y + m31 (its matrix is the transpose for row vectors).
QTransform transformOf(const double map[9]);

// The picture of a page's back as Segue shades it (segue_page_back on each pixel): what a mesh's
// triangles seen from behind show.
QImage backOf(const QImage &picture);

// A mesh layer projected onto a surface: its vertices there (`xy`, x then y, `count` of them), the
// points of its resting picture they show (`uv`, 0 to 1 of the layer's resting frame), each vertex's
// light front and back (segue_mesh_light), and its triangles (`grid`, `indices` entries, three a
// triangle). The arrays are the calling thread's, valid until its next projectMesh.
struct ProjectedMesh {
    const float *xy = nullptr, *uv = nullptr, *front = nullptr, *behind = nullptr;
    const int32_t *grid = nullptr;
    uint32_t count = 0, indices = 0;

    // Whether the triangle at grid[k] shows the picture's back (1), its front (0), or nothing (-1: it
    // is edge-on, on the surface or in the picture): its winding on the surface against its winding in
    // the picture of the layer resting at `rest`.
    int facing(uint32_t k, const segue_rect_t &rest) const;
};

// Projects `layer`'s mesh onto a surface of `size` points; false when it is behind the eye or its
// light cannot be had.
bool projectMesh(const segue_drawn_layer_t &layer, QSizeF size, ProjectedMesh &mesh);

// The layer's look (ABI 1.4: its corner radius and clip) as a path in the content's coordinates where
// it rests (drawn through the layer's map); false when it has none. Its shadow is not drawn.
bool lookOf(const segue_drawn_layer_t &layer, QPainterPath *path);

// Draws `layer`'s content `picture` (a page as it rests, the size of the container) moved as the layer
// is: a flat layer through its map, a layer with a mesh as the mesh's triangles (each textured by the
// affine map of its corners, lit by segue_mesh_light, the back's picture where it turns away). Alpha
// included. `back` may be null for a flat layer.
void paintLayer(QPainter &painter, const segue_drawn_layer_t &layer, const QImage &picture, const QImage &back, QSize size);

}  // namespace segueqt
