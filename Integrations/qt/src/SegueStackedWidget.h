// SegueStackedWidget: QStackedWidget's API for QWidget apps, whose page switches play Segue animators.
#pragma once

#include <QPointer>
#include <QWidget>

namespace segueqt {
class Player;
class Transition;
}
class SegueStackedOverlay;

/*
 * A stack of pages, one shown at a time, as QStackedWidget: addWidget, insertWidget, removeWidget,
 * setCurrentIndex/setCurrentWidget, currentIndex, currentWidget, count, indexOf, widget, and the
 * signals currentChanged and widgetRemoved. A switch between two shown pages plays a Segue transition:
 * the animator named by the `animator` property, else the config's rules by the two pages' objectName
 * (~/.config/segue/segue.json, or `configFile`), else the built-in default. The plugin runs in
 * libsegue's sandboxed worker: a plugin that crashes or hangs costs only its transition (the default
 * finishes it). While it plays, an overlay on top of the pages draws pictures of both pages (taken with
 * QWidget::grab() when it begins) moved by each layer's state: flat layers through libsegue's
 * projective map (QPainter draws perspective), layers with a mesh (CurlUp) as the mesh's textured
 * triangles, lit and with the page's back as Segue shades them. The pages themselves do not move; the
 * overlay takes input while it plays. A drag from the left edge (24 points) goes to the page before
 * interactively: the transition follows the pointer, and on release libsegue's edge-pan rule
 * (segue_edge_pan_finishes) finishes it or takes it back (transitionFinished says completed false); a
 * press there that does not move sideways stays the child's (the stack watches the application's
 * mouse events for it). The pages' named elements are not described to the animator
 * (element snapshot layers are not drawn).
 *
 * Threads: the GUI thread only, as every widget. The player (and its worker processes) is made at the
 * first switch and lives as long as the widget; its config is followed while the app runs.
 */
class SegueStackedWidget : public QWidget {
    Q_OBJECT
    Q_PROPERTY(int currentIndex READ currentIndex WRITE setCurrentIndex NOTIFY currentChanged)
    Q_PROPERTY(int count READ count)
    Q_PROPERTY(QString animator READ animator WRITE setAnimator)
    Q_PROPERTY(QString configFile READ configFile WRITE setConfigFile)
    Q_PROPERTY(bool transitionRunning READ isTransitionRunning)
    Q_PROPERTY(double holdFraction READ holdFraction WRITE setHoldFraction)
    Q_PROPERTY(bool edgeSwipe READ edgeSwipe WRITE setEdgeSwipe)
    Q_PROPERTY(bool late READ isLate)

public:
    explicit SegueStackedWidget(QWidget *parent = nullptr);
    ~SegueStackedWidget() override;

    // The stack takes ownership of `widget` (reparented) and answers its index; the first page added
    // becomes the current one. A widget already in the stack keeps its place.
    int addWidget(QWidget *widget);
    int insertWidget(int index, QWidget *widget);
    // Takes `widget` out of the stack (not deleted: its parent is still the stack's, as with
    // QStackedWidget). A transition it takes part in ends first, completed.
    void removeWidget(QWidget *widget);

    QWidget *currentWidget() const;
    int currentIndex() const;
    int indexOf(QWidget *widget) const;
    QWidget *widget(int index) const;
    int count() const;

    // The animator every switch plays ("CurlUp"); empty (the default) follows the config's rules.
    QString animator() const;
    void setAnimator(const QString &animator);
    // The config file to follow instead of the standard one; read when the player starts (the first switch).
    QString configFile() const;
    void setConfigFile(const QString &path);
    bool isTransitionRunning() const;

    // For tests and pictures: a fraction in [0, 1] holds every transition at that fraction of its
    // duration until it is set back to a negative value (the default) or finishTransition is called.
    double holdFraction() const;
    void setHoldFraction(double fraction);
    // Whether the transition's last frame held older states because the plugin was late (a held
    // transition is sampled again every frame until it answers).
    bool isLate() const;

    // Whether a drag from the left edge goes to the page before (true by default).
    bool edgeSwipe() const;
    void setEdgeSwipe(bool on);

public Q_SLOTS:
    void setCurrentIndex(int index);
    void setCurrentWidget(QWidget *widget);
    // Ends the running transition at once: completed shows the page it went to; not completed goes
    // back to the page it left (currentChanged says so).
    void finishTransition(bool completed);

Q_SIGNALS:
    void currentChanged(int index);
    void widgetRemoved(int index);
    // After every switch: the animator that ran ("default" after a fallback; "none" when no transition
    // could play, with why in `reason`), whether it completed, whether the built-in default ran
    // instead of the chosen animator, and why this animator ran (a config rule, a fallback's cause).
    void transitionFinished(const QString &animator, bool completed, bool fellBack, const QString &reason);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    bool event(QEvent *event) override;

private:
    friend class SegueStackedOverlay;
    bool switchTo(int index, bool interactive);
    void release(bool finish, double speed);
    void tick();
    void endTransition(bool completed);
    void showOnly(QWidget *page);
    QString nameOf(QWidget *page) const;

    QList<QWidget *> m_pages;
    int m_current = -1;
    QString m_animator, m_configFile;
    double m_hold = -1;
    segueqt::Player *m_player = nullptr;
    bool m_playerFailed = false;
    bool m_edgeSwipe = true, m_edgePress = false, m_swiping = false;
    QPointF m_pressAt;
    double m_lastX = 0, m_lastTime = 0, m_speed = 0;
    struct Playing;
    Playing *m_playing = nullptr;
    SegueStackedOverlay *m_overlay = nullptr;
};
