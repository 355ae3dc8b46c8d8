// SegueStackView: StackView's API for QML, whose transitions are Segue transitions (import Segue 1.0).
#pragma once

#include <QMatrix4x4>
#include <QPointer>
#include <QQuickItem>
#include <QVariant>
#include <QtQml/qqml.h>

class QQmlComponent;

namespace segueqt {
class Player;
class Transition;
}

/*
 * A layer's place as libsegue's map puts it: the full 4x4 matrix with the map's 3x3 in its x, y and w
 * rows and columns (perspective included), applied to a page item of the SegueStackView. Owned by the
 * view; used on the GUI thread.
 */
class SegueLayerTransform : public QQuickTransform {
    Q_OBJECT
public:
    explicit SegueLayerTransform(QObject *parent = nullptr) : QQuickTransform(parent) {}
    void setMap(const double map[9]);
    void applyTo(QMatrix4x4 *matrix) const override { *matrix *= m_matrix; }

private:
    QMatrix4x4 m_matrix;
};

/*
 * A stack of pages, as StackView: push(item or component), pop(), replace(item or component), depth,
 * currentItem, busy, initialItem. Each push, pop and replace between two pages plays a Segue
 * transition: the animator named by `animator`, else the config's rules by the pages' objectName
 * (~/.config/segue/segue.json, or `configFile`), else the built-in default; the plugin runs in
 * libsegue's sandboxed worker (a crash or hang costs only its transition). Each layer moves its page
 * item by a SegueLayerTransform (the full matrix), its opacity and its stacking order (z, back to
 * front as libsegue's sampler hands them: Qt Quick does not sort by depth), sampled once a frame as
 * the window animates; a page fading is drawn whole through a ShaderEffectSource of it (the page
 * hidden) moved and faded in its place, or layer.enabled when none can be made (on Qt 6's software
 * renderer at a device pixel ratio other than 1, which draws both black, the page fades itself, item
 * by item). A layer with a mesh
 * (CurlUp) is drawn from pictures
 * of the two pages grabbed from the window as the transition begins (so what covers the view in the
 * window is in them too): in the scene graph as a textured grid of the mesh's projected vertices with
 * Qt's stock materials, the light per vertex and the page's back as Segue shades them; with Qt Quick's
 * software renderer (no custom geometry) by a QQuickPaintedItem as the same triangles. A layer's look
 * (ABI 1.4: clip, corner radius, shadow) is not drawn here.
 * A drag from the left edge (24 points) pops interactively: the transition follows the finger, and on
 * release libsegue's edge-pan rule (segue_edge_pan_finishes) finishes it or takes it back (the page
 * stays, transitionFinished says completed false); a press there that does not move sideways stays
 * the child's. transitionFinished says how each one ended. Items the view created from a component are destroyed
 * when popped or replaced; items given are hidden and left to their owner. GUI thread only.
 */
class SegueStackView : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(int depth READ depth NOTIFY depthChanged)
    Q_PROPERTY(QQuickItem *currentItem READ currentItem NOTIFY currentItemChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QVariant initialItem READ initialItem WRITE setInitialItem)
    Q_PROPERTY(QString animator READ animator WRITE setAnimator NOTIFY animatorChanged)
    Q_PROPERTY(QString configFile READ configFile WRITE setConfigFile)
    Q_PROPERTY(double holdFraction READ holdFraction WRITE setHoldFraction)
    Q_PROPERTY(bool late READ isLate)
    Q_PROPERTY(QString meshDrawing READ meshDrawing)
    Q_PROPERTY(bool edgeSwipe READ edgeSwipe WRITE setEdgeSwipe)

public:
    explicit SegueStackView(QQuickItem *parent = nullptr);
    ~SegueStackView() override;

    int depth() const { return m_items.size(); }
    QQuickItem *currentItem() const { return m_items.isEmpty() ? nullptr : m_items.last().item; }
    bool busy() const { return m_playing != nullptr; }
    QVariant initialItem() const { return m_initial; }
    void setInitialItem(const QVariant &item) { m_initial = item; }
    QString animator() const { return m_animator; }
    void setAnimator(const QString &animator);
    QString configFile() const { return m_configFile; }
    void setConfigFile(const QString &path) { m_configFile = path; }
    // For tests and pictures: a fraction in [0, 1] holds every transition there until it is set back
    // to a negative value (the default) or finishTransition is called.
    double holdFraction() const { return m_hold; }
    void setHoldFraction(double fraction);
    // Whether the transition's last frame held older states because the plugin was late (a held
    // transition is sampled again every frame until it answers).
    bool isLate() const;
    // How the running transition's mesh layers are drawn: "scenegraph" (a textured grid: OpenGL or Qt 6's
    // RHI), "painted" (QPainter: Qt Quick's software renderer), or empty (no mesh, or no transition).
    QString meshDrawing() const;

    // An Item, or a Component the view creates the item of; the item pushed (null for anything else).
    Q_INVOKABLE QQuickItem *push(const QVariant &item);
    // The item popped (null at depth 1 or 0); it lives until its transition ends.
    Q_INVOKABLE QQuickItem *pop();
    Q_INVOKABLE QQuickItem *replace(const QVariant &item);
    // Whether a drag from the left edge pops (true by default).
    bool edgeSwipe() const { return m_edgeSwipe; }
    void setEdgeSwipe(bool on) { m_edgeSwipe = on; }
    // Ends the running transition at once (as completed: the stack is already what it will be).
    Q_INVOKABLE void finishTransition();

Q_SIGNALS:
    void depthChanged();
    void currentItemChanged();
    void busyChanged();
    void animatorChanged();
    void transitionFinished(const QString &animator, bool completed, bool fellBack, const QString &reason);

protected:
    void componentComplete() override;
    bool childMouseEventFilter(QQuickItem *item, QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseUngrabEvent() override;
#if QT_VERSION >= QT_VERSION_CHECK(6, 0, 0)
    void geometryChange(const QRectF &now, const QRectF &before) override;
#else
    void geometryChanged(const QRectF &now, const QRectF &before) override;
#endif

private:
    struct Entry {
        QPointer<QQuickItem> item;
        bool owned;
    };
    QQuickItem *take(const QVariant &item, bool *owned);
    bool play(QQuickItem *from, QQuickItem *to, bool goingRight, Entry leaving, bool interactive = false);
    bool edgeEvent(QEvent *event, QPointF at);
    void release(bool finish, double speed);
    void tick();
    QQuickItem *standIn(QQuickItem *page);
    // Whether the window draws texture layers (a ShaderEffectSource, layer.enabled): not Qt 6's software
    // renderer at a device pixel ratio other than 1, which draws them black.
    bool layersDrawn() const;
    void endTransition(bool completed);
    void place(QQuickItem *item);

    QVector<Entry> m_items;
    QVariant m_initial;
    QString m_animator, m_configFile;
    double m_hold = -1;
    segueqt::Player *m_player = nullptr;
    bool m_playerFailed = false;
    bool m_edgeSwipe = true, m_edgePress = false, m_swiping = false;
    QPointF m_pressAt;
    double m_lastX = 0, m_lastTime = 0, m_speed = 0;
    QQmlComponent *m_standIn = nullptr;  // makes a fading page's ShaderEffectSource stand-in
    struct Playing;
    Playing *m_playing = nullptr;
};
