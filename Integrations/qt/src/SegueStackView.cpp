#include "SegueStackView.h"

#include "seguecore.h"

#include <QElapsedTimer>
#include <QQmlComponent>
#include <QQmlContext>
#include <QQmlEngine>
#include <QQmlProperty>
#include <QQuickPaintedItem>
#include <QQuickWindow>
#include <QPainter>
#include <QTimer>
#include <QMouseEvent>
#include <QSGGeometryNode>
#include <QSGOpacityNode>
#include <QSGRendererInterface>
#include <QSGTextureMaterial>
#include <QSGVertexColorMaterial>

#include <cmath>
#include <vector>

void SegueLayerTransform::setMap(const double m[9]) {
    // The 3x3 in the x, y and w rows and columns; z passes through.
    const QMatrix4x4 matrix(static_cast<float>(m[0]), static_cast<float>(m[1]), 0, static_cast<float>(m[2]),
                            static_cast<float>(m[3]), static_cast<float>(m[4]), 0, static_cast<float>(m[5]),
                            0, 0, 1, 0,
                            static_cast<float>(m[6]), static_cast<float>(m[7]), 0, static_cast<float>(m[8]));
    if (matrix == m_matrix) return;
    m_matrix = matrix;
    update();
}

// The pictures of the two pages taken as the transition began, and the mesh layers to draw from them
// (with the side each shows), by either of the items below.
struct SegueMeshes {
    QVector<QPair<segue_drawn_layer_t, int>> layers;
    QImage pictures[2];
};

// The layers with a mesh drawn with QPainter (the same triangles, light and back as SegueStackedWidget
// draws): for Qt Quick's software renderer, which draws no custom geometry.
class SegueMeshItem : public QQuickPaintedItem {
public:
    SegueMeshItem(QQuickItem *parent, const SegueMeshes *meshes) : QQuickPaintedItem(parent), m_meshes(meshes) {}
    void paint(QPainter *painter) override {
        for (const auto &layer : m_meshes->layers) {
            int side = layer.second;
            if (m_backs[side].isNull()) m_backs[side] = segueqt::backOf(m_meshes->pictures[side]);
            segueqt::paintLayer(*painter, layer.first, m_meshes->pictures[side], m_backs[side], size().toSize());
        }
    }

private:
    const SegueMeshes *m_meshes;
    QImage m_backs[2];
};

// The node tree of SegueMeshGrid: owns the pages' textures (front and back of each side).
class SegueMeshRoot : public QSGNode {
public:
    ~SegueMeshRoot() override {
        for (QSGTexture *texture : textures) delete texture;
    }
    QSGTexture *textures[4] = { nullptr, nullptr, nullptr, nullptr };  // side * 2 + (back ? 1 : 0)
};

// The layers with a mesh drawn in the scene graph (OpenGL, or Qt 6's RHI): each a textured grid of its
// projected vertices, a page's picture (or its back's, where a triangle turns away) with Qt's stock
// texture material, and over it the same triangles in black with per-vertex alpha 1 - light, the light
// segue_mesh_light gives each vertex interpolated across the triangle as Segue's renderer lights it.
// Triangles keep the grid's order: a run of those facing one way is a pair of nodes.
class SegueMeshGrid : public QQuickItem {
public:
    SegueMeshGrid(QQuickItem *parent, const SegueMeshes *meshes) : QQuickItem(parent), m_meshes(meshes) { setFlag(ItemHasContents, true); }

protected:
    QSGNode *updatePaintNode(QSGNode *old, UpdatePaintNodeData *) override;

private:
    const SegueMeshes *m_meshes;
};

QSGNode *SegueMeshGrid::updatePaintNode(QSGNode *old, UpdatePaintNodeData *) {
    auto *root = static_cast<SegueMeshRoot *>(old);
    if (!root) root = new SegueMeshRoot;
    while (QSGNode *child = root->firstChild()) delete child;  // owned by their parent: removed as deleted
    for (const auto &entry : m_meshes->layers) {
        const segue_drawn_layer_t &layer = entry.first;
        const int side = entry.second;
        const QImage &picture = m_meshes->pictures[side];
        segueqt::ProjectedMesh mesh;
        if (!segueqt::projectMesh(layer, size(), mesh)) continue;  // behind the eye, or unlit
        for (int back = 0; back < 2; back++) {
            QSGTexture *&texture = root->textures[side * 2 + back];
            if (!texture) texture = window()->createTextureFromImage(back ? segueqt::backOf(picture) : picture);
            if (texture) texture->setFiltering(QSGTexture::Linear);
        }
        // Where each vertex is in the picture (the content is the picture of the layer's resting frame).
        const segue_rect_t rest = layer.resting_frame;
        auto texel = [&](int32_t i) {
            return QPointF((rest.x + mesh.uv[2 * i] * rest.width) / width(), (rest.y + mesh.uv[2 * i + 1] * rest.height) / height());
        };
        auto *group = new QSGOpacityNode;
        group->setOpacity(qBound(0.0, layer.state.alpha, 1.0));
        root->appendChildNode(group);
        for (uint32_t k = 0; k + 2 < mesh.indices;) {
            int facing = mesh.facing(k, rest);
            if (facing < 0) { k += 3; continue; }
            uint32_t end = k;
            while (end + 2 < mesh.indices && mesh.facing(end, rest) == facing) end += 3;
            const int vertices = int(end - k);
            QSGTexture *texture = root->textures[side * 2 + facing];
            if (!texture) {  // the picture could not become a texture: the run is left out
                k = end;
                continue;
            }
            const QRectF sub = texture->normalizedTextureSubRect();
            const float *shades = facing ? mesh.behind : mesh.front;
            auto *textured = new QSGGeometry(QSGGeometry::defaultAttributes_TexturedPoint2D(), vertices);
            auto *shaded = new QSGGeometry(QSGGeometry::defaultAttributes_ColoredPoint2D(), vertices);
            textured->setDrawingMode(QSGGeometry::DrawTriangles);
            shaded->setDrawingMode(QSGGeometry::DrawTriangles);
            QSGGeometry::TexturedPoint2D *t = textured->vertexDataAsTexturedPoint2D();
            QSGGeometry::ColoredPoint2D *c = shaded->vertexDataAsColoredPoint2D();
            for (int v = 0; v < vertices; v++) {
                const int32_t i = mesh.grid[k + uint32_t(v)];
                const QPointF s = texel(i);
                t[v].set(mesh.xy[2 * i], mesh.xy[2 * i + 1], float(sub.x() + s.x() * sub.width()), float(sub.y() + s.y() * sub.height()));
                // Premultiplied black: the colour times the light.
                c[v].set(mesh.xy[2 * i], mesh.xy[2 * i + 1], 0, 0, 0, uchar(std::lround(255 * qBound(0.0f, 1 - shades[i], 1.0f))));
            }
            auto *page = new QSGGeometryNode;
            page->setGeometry(textured);
            auto *material = new QSGTextureMaterial;  // blends: a page's picture may have alpha
            material->setTexture(texture);
            material->setFiltering(QSGTexture::Linear);
            page->setMaterial(material);
            page->setFlags(QSGNode::OwnsGeometry | QSGNode::OwnsMaterial);
            group->appendChildNode(page);
            auto *light = new QSGGeometryNode;
            light->setGeometry(shaded);
            light->setMaterial(new QSGVertexColorMaterial);
            light->setFlags(QSGNode::OwnsGeometry | QSGNode::OwnsMaterial);
            group->appendChildNode(light);
            k = end;
        }
    }
    return root;
}

struct SegueStackView::Playing {
    segueqt::Transition *transition = nullptr;
    segueqt::Playhead head;
    QPointer<QQuickItem> pages[2];  // from, to
    SegueLayerTransform *transforms[2] = { nullptr, nullptr };
    bool layered[2] = { false, false };
    // A fading page's stand-in: a ShaderEffectSource of it (the page hidden), moved and faded in its place.
    QQuickItem *proxies[2] = { nullptr, nullptr };
    SegueLayerTransform *proxyTransforms[2] = { nullptr, nullptr };
    SegueMeshes meshes;
    QQuickItem *meshItem = nullptr;  // a SegueMeshGrid or SegueMeshItem, when the plan has a mesh
    QPointer<QQuickItem> leaving;  // popped or replaced: disposed of at the end
    bool leavingOwned = false;
    QTimer timer;                   // ticks when the window draws no frame (hidden): a frame's tick restarts it
    QMetaObject::Connection frames;  // the window's afterAnimating: a tick each frame it draws
    double lastTick = -1, step = 1 / 60.0;  // the last tick's time and the time between the last two ticks
};

static const double EdgeWidth = 24, DragThreshold = 12, RestSeconds = 0.1;

static double nowSeconds() {
    static QElapsedTimer clock;
    if (!clock.isValid()) clock.start();
    return clock.nsecsElapsed() / 1e9;
}

SegueStackView::SegueStackView(QQuickItem *parent) : QQuickItem(parent) {
    setClip(true);
    setFiltersChildMouseEvents(true);
    setAcceptedMouseButtons(Qt::LeftButton);
}

SegueStackView::~SegueStackView() {
    if (m_playing) endTransition(true);
    delete m_player;
}

void SegueStackView::setAnimator(const QString &animator) {
    if (animator == m_animator) return;
    m_animator = animator;
    emit animatorChanged();
}

void SegueStackView::setHoldFraction(double fraction) {
    m_hold = fraction >= 0 ? qMin(fraction, 1.0) : -1;
    if (m_playing && m_hold < 0) m_playing->head.clock.restart();
    if (m_playing) tick();
}

void SegueStackView::componentComplete() {
    QQuickItem::componentComplete();
    if (m_initial.isValid() && m_items.isEmpty()) push(m_initial);
}

#if QT_VERSION >= QT_VERSION_CHECK(6, 0, 0)
void SegueStackView::geometryChange(const QRectF &now, const QRectF &before) {
    QQuickItem::geometryChange(now, before);
#else
void SegueStackView::geometryChanged(const QRectF &now, const QRectF &before) {
    QQuickItem::geometryChanged(now, before);
#endif
    for (const Entry &entry : m_items) place(entry.item);
}

void SegueStackView::place(QQuickItem *item) {
    if (!item) return;
    item->setPosition(QPointF(0, 0));
    item->setSize(size());
}

QQuickItem *SegueStackView::take(const QVariant &value, bool *owned) {
    QObject *object = value.value<QObject *>();
    if (auto *item = qobject_cast<QQuickItem *>(object)) {
        *owned = false;
        item->setParentItem(this);
        place(item);
        return item;
    }
    auto *component = qobject_cast<QQmlComponent *>(object);
    if (!component) {
        qWarning("SegueStackView: push and replace take an Item or a Component, not %s", value.typeName() ? value.typeName() : "nothing");
        return nullptr;
    }
    QQmlContext *context = component->creationContext() ? component->creationContext() : qmlContext(this);
    QObject *created = component->beginCreate(context);
    auto *item = qobject_cast<QQuickItem *>(created);
    if (!item) {
        qWarning("SegueStackView: the component made no Item: %s", qPrintable(component->errorString()));
        delete created;
        return nullptr;
    }
    item->setParentItem(this);
    place(item);
    component->completeCreate();
    QQmlEngine::setObjectOwnership(item, QQmlEngine::CppOwnership);
    *owned = true;
    return item;
}

QQuickItem *SegueStackView::push(const QVariant &value) {
    if (m_playing) endTransition(true);
    bool owned = false;
    QQuickItem *item = take(value, &owned);
    if (!item) return nullptr;
    QQuickItem *from = currentItem();
    m_items.append(Entry { item, owned });
    emit depthChanged();
    emit currentItemChanged();
    if (from) play(from, item, true, Entry { nullptr, false });
    else item->setVisible(true);
    return item;
}

QQuickItem *SegueStackView::pop() {
    if (m_playing) endTransition(true);
    if (m_items.size() < 2) return nullptr;
    Entry leaving = m_items.takeLast();
    emit depthChanged();
    emit currentItemChanged();
    play(leaving.item, currentItem(), false, leaving);
    return leaving.item;
}

QQuickItem *SegueStackView::replace(const QVariant &value) {
    if (m_items.isEmpty()) return push(value);
    if (m_playing) endTransition(true);
    bool owned = false;
    QQuickItem *item = take(value, &owned);
    if (!item) return nullptr;
    Entry leaving = m_items.takeLast();
    m_items.append(Entry { item, owned });
    emit currentItemChanged();
    play(leaving.item, item, true, leaving);
    return item;
}

void SegueStackView::finishTransition() {
    if (m_playing) endTransition(true);
}

bool SegueStackView::play(QQuickItem *from, QQuickItem *to, bool goingRight, Entry leaving, bool interactive) {
    for (const Entry &entry : m_items) {
        if (entry.item && entry.item != to) entry.item->setVisible(false);
    }
    QString why;
    segueqt::Transition *transition = nullptr;
    if (!window() || width() <= 0 || height() <= 0) {
        why = QStringLiteral("the stack view is not shown or has no size");
    } else {
        if (!m_player && !m_playerFailed) {
            m_player = new segueqt::Player(m_configFile);
            m_playerFailed = m_player->handle() == nullptr;
        }
        if (m_playerFailed) {
            why = QStringLiteral("Segue's player could not start (the log says why)");
        } else {
            transition = segueqt::Transition::begin(m_player->handle(), size().toSize(), from ? from->objectName() : QString(),
                                                    to->objectName(), goingRight, interactive, m_animator, &why);
            if (!transition) {
                qWarning("SegueStackView: a transition could not begin: %s", qPrintable(why));
                why = QStringLiteral("the transition could not begin: ") + why;
            }
        }
    }
    if (!transition) {
        to->setVisible(true);
        if (leaving.item) {
            leaving.item->setVisible(false);
            if (leaving.owned) leaving.item->deleteLater();
        }
        emit transitionFinished(QStringLiteral("none"), true, false, why);
        return false;
    }
    auto *p = new Playing;
    p->transition = transition;
    p->head.interactive = interactive;
    p->pages[0] = from;
    p->pages[1] = to;
    if (transition->hasMesh()) {
        // Each page alone in the window, grabbed where the view is.
        QRectF scene = mapRectToScene(boundingRect());
        qreal scale = window()->effectiveDevicePixelRatio();
        QRect at = QRectF(scene.topLeft() * scale, scene.size() * scale).toAlignedRect();
        for (int side = 0; side < 2; side++) {
            if (p->pages[side]) p->pages[side]->setVisible(true);
            if (p->pages[1 - side]) p->pages[1 - side]->setVisible(false);
            p->meshes.pictures[side] = window()->grabWindow().copy(at).convertToFormat(QImage::Format_ARGB32_Premultiplied);
        }
        // Qt Quick's software renderer draws no custom geometry: QPainter draws there.
        if (window()->rendererInterface()->graphicsApi() == QSGRendererInterface::Software) p->meshItem = new SegueMeshItem(this, &p->meshes);
        else p->meshItem = new SegueMeshGrid(this, &p->meshes);
        p->meshItem->setSize(size());
        p->meshItem->setVisible(false);
    }
    p->leaving = leaving.item;
    p->leavingOwned = leaving.owned;
    for (int side = 0; side < 2; side++) {
        if (!p->pages[side]) continue;
        p->transforms[side] = new SegueLayerTransform(this);
        p->transforms[side]->appendToItem(p->pages[side]);
    }
    m_playing = p;
    // Sampled as the window animates each frame (as Qt Quick's own animations are), so that the view
    // moves at the window's frame rate: one sample a frame drawn, none lost between a timer and the
    // frames. The timer ticks only when the window draws no frame (hidden, or not yet shown).
    p->timer.setInterval(100);
    connect(&p->timer, &QTimer::timeout, this, &SegueStackView::tick);
    if (window()) p->frames = connect(window(), &QQuickWindow::afterAnimating, this, &SegueStackView::tick);
    p->head.clock.start();
    p->timer.start();
    emit busyChanged();
    tick();
    return true;
}

// A ShaderEffectSource of `page` in the view (the page hidden while it lives), or null when the view has
// no QML engine or it could not be made.
QQuickItem *SegueStackView::standIn(QQuickItem *page) {
    QQmlEngine *engine = qmlEngine(this);
    if (!engine || !page) return nullptr;
    if (!m_standIn) {  // compiled once a view
        m_standIn = new QQmlComponent(engine, this);
        // Unsmoothed, as layer.enabled draws a layer by default.
        m_standIn->setData("import QtQuick 2.15\nShaderEffectSource { hideSource: true; live: true; smooth: false }", QUrl());
    }
    auto *proxy = qobject_cast<QQuickItem *>(m_standIn->create());
    if (!proxy) {
        qWarning("Segue: a fading page is drawn through layer.enabled (no ShaderEffectSource: %s)", qPrintable(m_standIn->errorString()));
        return nullptr;
    }
    proxy->setParentItem(this);
    proxy->setProperty("sourceItem", QVariant::fromValue(page));
    proxy->setSize(page->size());
    return proxy;
}

bool SegueStackView::layersDrawn() const {
    QQuickWindow *w = window();
    return !w || w->rendererInterface()->graphicsApi() != QSGRendererInterface::Software || w->effectiveDevicePixelRatio() == 1;
}

void SegueStackView::tick() {
    Playing *p = m_playing;
    if (!p) return;
    double duration = p->transition->duration();
    double t = p->head.time(duration, m_hold);
    if (p->transition->sample(qMin(t, duration))) {
        bool shown[2] = { false, false };
        const QVector<segue_drawn_layer_t> &layers = p->transition->layers();
        p->meshes.layers.clear();
        for (int k = 0; k < layers.size(); k++) {
            const segue_drawn_layer_t &layer = layers[k];
            int side = layer.request.kind == SEGUE_LAYER_TO_VIEW ? 1 : layer.request.kind == SEGUE_LAYER_FROM_VIEW ? 0 : -1;
            if (side < 0 || !p->pages[side] || !layer.visible) continue;  // element snapshots: no elements are described
            if (layer.has_mesh && p->meshItem && !p->meshes.pictures[side].isNull()) {
                p->meshes.layers.append(qMakePair(layer, side));
                p->meshItem->setZ(k);
                continue;
            }
            shown[side] = true;
            // A page fading (by more than half a level in 255) is drawn whole and then faded, as Segue
            // draws a layer; faded as an item Qt Quick would fade each of its items on its own, each
            // showing through the next. A ShaderEffectSource of the page stands in for it: moved and
            // faded, it draws its picture again only when the page changes (layer.enabled on the
            // moving page cost Qt 6's software renderer a tenth more a frame); layer.enabled where it
            // cannot be made. Qt 6's software renderer draws both black at a device pixel ratio other than 1
            // (a HiDPI screen): there the page itself fades, each of its items on its own.
            if (layer.state.alpha < 0.998 && layersDrawn() && !p->proxies[side] && !p->layered[side]
                && !QQmlProperty::read(p->pages[side], "layer.enabled").toBool()) {
                if (QQuickItem *proxy = standIn(p->pages[side])) {
                    p->proxies[side] = proxy;
                    p->proxyTransforms[side] = new SegueLayerTransform(this);
                    p->proxyTransforms[side]->appendToItem(proxy);
                } else {
                    p->layered[side] = QQmlProperty::write(p->pages[side], "layer.enabled", true);
                }
            }
            QQuickItem *drawn = p->proxies[side] ? p->proxies[side] : p->pages[side].data();
            SegueLayerTransform *transform = p->proxies[side] ? p->proxyTransforms[side] : p->transforms[side];
            const double *m = layer.map;
            if (m[0] == 1 && m[1] == 0 && m[3] == 0 && m[4] == 1 && m[6] == 0 && m[7] == 0 && m[8] == 1) {
                // A translation moves the item itself: Qt Quick's renderers draw a moved item as a
                // StackView's slide, cheaper than an item under a transform.
                static const double identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
                transform->setMap(identity);
                drawn->setPosition(QPointF(m[2], m[5]));
            } else {
                drawn->setPosition(QPointF(0, 0));
                transform->setMap(m);
            }
            drawn->setOpacity(qBound(0.0, layer.state.alpha, 1.0));
            drawn->setZ(k);  // back to front: Qt Quick draws siblings by z, then by order
        }
        for (int side = 0; side < 2; side++) {
            if (p->pages[side]) p->pages[side]->setVisible(shown[side]);
            if (p->proxies[side]) p->proxies[side]->setVisible(shown[side]);
        }
        if (p->meshItem) {
            p->meshItem->setVisible(!p->meshes.layers.isEmpty());
            p->meshItem->update();
        }
    }
    p->timer.start();
    if (p->lastTick >= 0 && t > p->lastTick) p->step = qBound(0.004, t - p->lastTick, 0.1);
    p->lastTick = t;
    if (m_hold >= 0) {
        if (p->transition->late() && window()) window()->update();  // sampled again next frame until it answers
        return;
    }
    if (window()) window()->update();  // the next frame, where the transition is sampled again
    // The next frame's answer asked for now, while this one is drawn (a finger's next place is unknown).
    if (!p->head.interactive || p->head.released) p->transition->prefetch(t + p->step);
    if (p->head.interactive) {
        if (p->head.arrived()) endTransition(p->head.target == 1);
    } else if (t >= duration) {
        endTransition(true);
    }
}

void SegueStackView::endTransition(bool completed) {
    Playing *p = m_playing;
    if (!p) return;
    m_playing = nullptr;
    p->timer.stop();
    disconnect(p->frames);
    segueqt::Report report = p->transition->finish(completed);
    delete p->transition;
    for (int side = 0; side < 2; side++) {
        if (p->pages[side]) {
            // Its transform list forgets a transform as it is destroyed.
            p->pages[side]->setOpacity(1);
            place(p->pages[side]);
            if (p->layered[side]) QQmlProperty::write(p->pages[side], "layer.enabled", false);
            p->pages[side]->setZ(0);
        }
        delete p->proxies[side];  // before its transform: the transform would update a destroyed item
        delete p->transforms[side];
        delete p->proxyTransforms[side];
    }
    delete p->meshItem;
    if (!completed && p->leaving) {
        // A pop taken back: the page it was leaving is the top again.
        m_items.append(Entry { p->leaving, p->leavingOwned });
        p->leaving = nullptr;
        emit depthChanged();
        emit currentItemChanged();
    }
    for (const Entry &entry : m_items) {
        if (entry.item) entry.item->setVisible(entry.item == currentItem());
    }
    if (p->leaving) {
        p->leaving->setVisible(false);
        if (p->leavingOwned) p->leaving->deleteLater();
    }
    delete p;
    emit busyChanged();
    emit transitionFinished(report.animator, report.completed, report.fellBack, report.reason);
}

QString SegueStackView::meshDrawing() const {
    if (!m_playing || !m_playing->meshItem) return QString();
    return dynamic_cast<SegueMeshGrid *>(m_playing->meshItem) ? QStringLiteral("scenegraph") : QStringLiteral("painted");
}

bool SegueStackView::isLate() const { return m_playing && m_playing->transition->late(); }

// ---- The edge swipe -----------------------------------------------------------

void SegueStackView::release(bool finish, double speed) {
    Playing *p = m_playing;
    m_swiping = false;
    if (!p || !p->head.interactive || p->head.released) return;
    p->head.release(finish, speed, p->transition->duration());
    tick();
}

// A press near the left edge may become the swipe back; it is claimed only once it moves sideways past
// the threshold, so that a click there stays the child's. True when the event is the swipe's.
bool SegueStackView::edgeEvent(QEvent *event, QPointF at) {
    double now = nowSeconds();
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        if (m_swiping) release(false, 0);  // the last one's release never came
        m_swiping = false;
        m_edgePress = m_edgeSwipe && at.x() <= EdgeWidth && m_items.size() > 1 && !m_playing;
        m_pressAt = at;
        return false;
    case QEvent::MouseMove: {
        double dx = at.x() - m_pressAt.x(), dy = at.y() - m_pressAt.y();
        if (!m_swiping) {
            if (!m_edgePress || dx < DragThreshold || std::abs(dy) > dx) return false;
            m_edgePress = false;
            Entry leaving = m_items.takeLast();
            emit depthChanged();
            emit currentItemChanged();
            if (!play(leaving.item, currentItem(), false, leaving, true)) return false;
            m_swiping = true;
            m_lastX = dx;
            m_lastTime = now;
            m_speed = 0;
            grabMouse();
        }
        if (!m_playing) return true;
        if (now > m_lastTime) m_speed = (dx - m_lastX) / (now - m_lastTime);
        m_lastX = dx;
        m_lastTime = now;
        m_playing->head.fraction = width() > 0 ? qBound(0.0, dx / width(), 1.0) : 0;
        tick();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        m_edgePress = false;
        if (!m_swiping) return false;
        // A finger that rested before it let go flings nothing.
        if (now - m_lastTime > RestSeconds) m_speed = 0;
        double dx = at.x() - m_pressAt.x();
        bool finish = segue_edge_pan_finishes(dx, m_speed, width());
        double flick = width() > 0 ? m_speed / width() : 0;
        release(finish, finish ? qMax(flick, 0.0) : qMax(-flick, 0.0));
        ungrabMouse();
        return true;
    }
    default:
        return false;
    }
}

static QPointF scenePoint(QMouseEvent *event) {
#if QT_VERSION >= QT_VERSION_CHECK(6, 0, 0)
    return event->scenePosition();
#else
    return event->windowPos();
#endif
}

bool SegueStackView::childMouseEventFilter(QQuickItem *item, QEvent *event) {
    switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseMove:
    case QEvent::MouseButtonRelease: {
        auto *mouse = static_cast<QMouseEvent *>(event);
        return edgeEvent(event, mapFromScene(scenePoint(mouse)));
    }
    default:
        return QQuickItem::childMouseEventFilter(item, event);
    }
}

void SegueStackView::mousePressEvent(QMouseEvent *event) {
    edgeEvent(event, event->pos());
    // Kept only when it may become the swipe; else it goes on to what is below.
    event->setAccepted(m_edgePress);
}

void SegueStackView::mouseMoveEvent(QMouseEvent *event) { event->setAccepted(edgeEvent(event, event->pos())); }

void SegueStackView::mouseReleaseEvent(QMouseEvent *event) {
    event->setAccepted(edgeEvent(event, event->pos())); }

void SegueStackView::mouseUngrabEvent() {
    // Qt Quick may move the grab between the view and the child it filters while a swipe goes on:
    // the swipe ends with its release (seen either way), a new press, or a push or pop.
    m_edgePress = false;
}
