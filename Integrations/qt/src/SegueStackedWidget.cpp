#include "SegueStackedWidget.h"

#include "seguecore.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QApplication>
#include <QMouseEvent>
#include <QTimer>

#include <cmath>

// The pictures and the transition while one plays.
struct SegueStackedWidget::Playing {
    segueqt::Transition *transition = nullptr;
    QPointer<QWidget> from, to;
    int fromIndex = -1;
    QImage pictures[2], backs[2];  // the from page's and the to page's, at rest; their backs, for meshes
    QTimer timer;
    segueqt::Playhead head;
};

// Draws the transition over the pages: the background, then each layer back to front.
class SegueStackedOverlay : public QWidget {
public:
    explicit SegueStackedOverlay(SegueStackedWidget *stack) : QWidget(stack), m_stack(stack) {
        setAttribute(Qt::WA_OpaquePaintEvent);
        hide();
    }

protected:
    void paintEvent(QPaintEvent *) override {
        QPainter painter(this);
        painter.fillRect(rect(), palette().color(QPalette::Window));
        auto *p = m_stack->m_playing;
        if (!p) return;
        for (const segue_drawn_layer_t &layer : p->transition->layers()) {
            int side = layer.request.kind == SEGUE_LAYER_TO_VIEW ? 1 : layer.request.kind == SEGUE_LAYER_FROM_VIEW ? 0 : -1;
            if (side < 0) continue;  // element snapshots: no elements are described
            if (layer.has_mesh && p->backs[side].isNull()) p->backs[side] = segueqt::backOf(p->pictures[side]);
            segueqt::paintLayer(painter, layer, p->pictures[side], p->backs[side], p->transition->size());
        }
    }

private:
    SegueStackedWidget *m_stack;
};

SegueStackedWidget::SegueStackedWidget(QWidget *parent) : QWidget(parent), m_overlay(new SegueStackedOverlay(this)) {
    // The edge swipe sees the mouse before the pages' own widgets do.
    qApp->installEventFilter(this);
}

SegueStackedWidget::~SegueStackedWidget() {
    if (m_playing) endTransition(true);
    delete m_player;
}

QString SegueStackedWidget::nameOf(QWidget *page) const { return page ? page->objectName() : QString(); }

int SegueStackedWidget::addWidget(QWidget *widget) { return insertWidget(m_pages.size(), widget); }

int SegueStackedWidget::insertWidget(int index, QWidget *widget) {
    if (!widget) return -1;
    int at = m_pages.indexOf(widget);
    if (at >= 0) return at;
    index = index < 0 || index > m_pages.size() ? m_pages.size() : index;
    QWidget *current = currentWidget();
    widget->setParent(this);
    widget->setGeometry(rect());
    m_pages.insert(index, widget);
    if (!current) {
        m_current = index;
        showOnly(widget);
        emit currentChanged(m_current);
    } else {
        m_current = m_pages.indexOf(current);
        if (!m_playing) widget->hide();
    }
    m_overlay->raise();
    return index;
}

void SegueStackedWidget::removeWidget(QWidget *widget) {
    int index = m_pages.indexOf(widget);
    if (index < 0) return;
    if (m_playing && (m_playing->from == widget || m_playing->to == widget)) endTransition(true);
    QWidget *current = currentWidget();
    m_pages.removeAt(index);
    widget->hide();
    emit widgetRemoved(index);
    if (widget == current) {
        m_current = m_pages.isEmpty() ? -1 : qMin(index, int(m_pages.size()) - 1);
        if (m_current >= 0) showOnly(m_pages[m_current]);
        emit currentChanged(m_current);
    } else {
        m_current = m_pages.indexOf(current);
    }
}

QWidget *SegueStackedWidget::currentWidget() const { return m_current >= 0 && m_current < m_pages.size() ? m_pages[m_current] : nullptr; }
int SegueStackedWidget::currentIndex() const { return m_current; }
int SegueStackedWidget::indexOf(QWidget *widget) const { return m_pages.indexOf(widget); }
QWidget *SegueStackedWidget::widget(int index) const { return index >= 0 && index < m_pages.size() ? m_pages[index] : nullptr; }
int SegueStackedWidget::count() const { return m_pages.size(); }
QString SegueStackedWidget::animator() const { return m_animator; }
void SegueStackedWidget::setAnimator(const QString &animator) { m_animator = animator; }
QString SegueStackedWidget::configFile() const { return m_configFile; }
void SegueStackedWidget::setConfigFile(const QString &path) { m_configFile = path; }
bool SegueStackedWidget::isTransitionRunning() const { return m_playing != nullptr; }
double SegueStackedWidget::holdFraction() const { return m_hold; }

void SegueStackedWidget::setHoldFraction(double fraction) {
    m_hold = fraction >= 0 ? qMin(fraction, 1.0) : -1;
    if (m_playing && m_hold < 0) m_playing->head.clock.restart();
    if (m_playing) tick();
}

void SegueStackedWidget::showOnly(QWidget *page) {
    for (QWidget *w : m_pages) {
        if (w != page) w->hide();
    }
    if (page) {
        page->setGeometry(rect());
        page->show();
    }
}

void SegueStackedWidget::setCurrentWidget(QWidget *widget) {
    int index = m_pages.indexOf(widget);
    if (index < 0) {
        qWarning("SegueStackedWidget::setCurrentWidget: the widget is not in the stack");
        return;
    }
    setCurrentIndex(index);
}

void SegueStackedWidget::setCurrentIndex(int index) { switchTo(index, false); }

bool SegueStackedWidget::switchTo(int index, bool interactive) {
    if (index < 0 || index >= m_pages.size()) return false;
    if (m_playing) endTransition(true);
    if (index == m_current) return false;
    QWidget *from = currentWidget(), *to = m_pages[index];
    int fromIndex = m_current;
    m_current = index;
    const char *refusal = !from                      ? "no page was shown"
                          : !isVisible()             ? "the stack is not shown"
                          : width() <= 0 || height() <= 0 ? "the stack has no size yet"
                                                     : nullptr;
    if (!refusal && !m_player && !m_playerFailed) {
        m_player = new segueqt::Player(m_configFile);
        m_playerFailed = m_player->handle() == nullptr;
    }
    if (!refusal && m_playerFailed) refusal = "Segue's player could not start (the log says why)";
    QString why = QString::fromUtf8(refusal ? refusal : "");
    segueqt::Transition *transition = nullptr;
    if (!refusal) {
        transition = segueqt::Transition::begin(m_player->handle(), size(), nameOf(from), nameOf(to), index > fromIndex, interactive,
                                                m_animator, &why);
        if (!transition) {
            qWarning("SegueStackedWidget: a transition from \"%s\" to \"%s\" could not begin: %s", qPrintable(nameOf(from)),
                     qPrintable(nameOf(to)), qPrintable(why));
            why = QStringLiteral("the transition could not begin: ") + why;
        }
    }
    if (!transition) {
        showOnly(to);
        emit currentChanged(m_current);
        emit transitionFinished(QStringLiteral("none"), true, false, why);
        return false;
    }
    auto *p = new Playing;
    p->transition = transition;
    p->head.interactive = interactive;
    p->from = from;
    p->to = to;
    p->fromIndex = fromIndex;
    // Both pages as they look at rest, the size of the stack.
    to->setGeometry(rect());
    p->pictures[0] = from->grab().toImage();
    p->pictures[1] = to->grab().toImage();
    for (QImage &picture : p->pictures) picture = picture.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    m_playing = p;
    showOnly(to);
    m_overlay->setGeometry(rect());
    m_overlay->raise();
    m_overlay->show();
    p->timer.setTimerType(Qt::PreciseTimer);
    p->timer.setInterval(16);
    connect(&p->timer, &QTimer::timeout, this, &SegueStackedWidget::tick);
    p->head.clock.start();
    p->timer.start();
    emit currentChanged(m_current);
    tick();
    return true;
}

void SegueStackedWidget::tick() {
    Playing *p = m_playing;
    if (!p) return;
    double duration = p->transition->duration();
    double t = p->head.time(duration, m_hold);
    p->transition->sample(qMin(t, duration));
    m_overlay->update();
    if (m_hold >= 0) return;
    if (p->head.interactive) {
        if (p->head.arrived()) endTransition(p->head.target == 1);
        else if (p->head.released) p->transition->prefetch(t + p->timer.interval() / 1000.0);
    } else if (t >= duration) {
        endTransition(true);
    } else {
        p->transition->prefetch(t + p->timer.interval() / 1000.0);  // the next frame's answer, asked for now
    }
}

void SegueStackedWidget::finishTransition(bool completed) {
    if (m_playing) endTransition(completed);
}

void SegueStackedWidget::endTransition(bool completed) {
    Playing *p = m_playing;
    if (!p) return;
    m_playing = nullptr;
    p->timer.stop();
    segueqt::Report report = p->transition->finish(completed);
    delete p->transition;
    m_overlay->hide();
    if (!completed && p->from && m_pages.contains(p->from)) {
        m_current = m_pages.indexOf(p->from);
        showOnly(p->from);
        emit currentChanged(m_current);
    } else {
        showOnly(currentWidget());
    }
    delete p;
    emit transitionFinished(report.animator, report.completed, report.fellBack, report.reason);
}

void SegueStackedWidget::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    if (QWidget *current = currentWidget()) current->setGeometry(rect());
    m_overlay->setGeometry(rect());
}

bool SegueStackedWidget::event(QEvent *event) {
    // A page deleted or reparented away leaves the stack (a deleted one is no longer a widget to call).
    if (event->type() == QEvent::ChildRemoved) {
        QObject *child = static_cast<QChildEvent *>(event)->child();
        int index = -1;
        for (int i = 0; i < m_pages.size(); i++) {
            if (static_cast<QObject *>(m_pages[i]) == child) index = i;
        }
        if (index >= 0) {
            QWidget *current = currentWidget();
            bool gone = current == static_cast<QObject *>(child);
            if (m_playing && (!m_playing->from || !m_playing->to || m_playing->from == child || m_playing->to == child)) {
                m_pages.removeAt(index);  // before the transition ends: it must not show the page again
                m_current = gone ? -1 : m_pages.indexOf(current);
                endTransition(true);
            } else {
                m_pages.removeAt(index);
            }
            emit widgetRemoved(index);
            if (gone) {
                m_current = m_pages.isEmpty() ? -1 : qMin(index, int(m_pages.size()) - 1);
                if (m_current >= 0) showOnly(m_pages[m_current]);
                emit currentChanged(m_current);
            } else {
                m_current = m_pages.indexOf(current);
            }
        }
    }
    return QWidget::event(event);
}

bool SegueStackedWidget::isLate() const { return m_playing && m_playing->transition->late(); }

// ---- The edge swipe -----------------------------------------------------------

static const double EdgeWidth = 24, DragThreshold = 12, RestSeconds = 0.1;

static double nowSeconds() {
    static QElapsedTimer clock;
    if (!clock.isValid()) clock.start();
    return clock.nsecsElapsed() / 1e9;
}

bool SegueStackedWidget::edgeSwipe() const { return m_edgeSwipe; }
void SegueStackedWidget::setEdgeSwipe(bool on) { m_edgeSwipe = on; }

void SegueStackedWidget::release(bool finish, double speed) {
    Playing *p = m_playing;
    m_swiping = false;
    if (!p || !p->head.interactive || p->head.released) return;
    p->head.release(finish, speed, p->transition->duration());
    tick();
}

// A press near the left edge may become the swipe back to the page before; it is claimed only once it
// moves sideways past the threshold, so that a click there stays the child's.
bool SegueStackedWidget::eventFilter(QObject *watched, QEvent *event) {
    QEvent::Type type = event->type();
    if (type != QEvent::MouseButtonPress && type != QEvent::MouseMove && type != QEvent::MouseButtonRelease) return false;
    auto *target = qobject_cast<QWidget *>(watched);
    // A press's moves and release go to the widget pressed: the stack's own events are its and its
    // descendants' (the overlay's during the swipe).
    if (!target || !(target == this || isAncestorOf(target))) return false;
    auto *mouse = static_cast<QMouseEvent *>(event);
#if QT_VERSION >= QT_VERSION_CHECK(6, 0, 0)
    QPointF at = mapFromGlobal(mouse->globalPosition());
#else
    QPointF at = mapFromGlobal(mouse->globalPos());
#endif
    double now = nowSeconds();
    switch (type) {
    case QEvent::MouseButtonPress:
        if (m_swiping) release(false, 0);  // the last one's release never came
        m_swiping = false;
        m_edgePress = m_edgeSwipe && isVisible() && at.x() >= 0 && at.x() <= EdgeWidth && at.y() >= 0 && at.y() < height() &&
                      m_current > 0 && !m_playing;
        m_pressAt = at;
        return false;
    case QEvent::MouseMove: {
        double dx = at.x() - m_pressAt.x(), dy = at.y() - m_pressAt.y();
        if (!m_swiping) {
            if (!m_edgePress || dx < DragThreshold || std::abs(dy) > dx) return false;
            m_edgePress = false;
            if (!switchTo(m_current - 1, true)) return false;
            m_swiping = true;
            m_lastX = dx;
            m_lastTime = now;
            m_speed = 0;
        }
        if (!m_playing) return true;
        if (dx == m_lastX) return true;  // the same move again, passed on to a parent
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
        if (now - m_lastTime > RestSeconds) m_speed = 0;  // a finger that rested before it let go flings nothing
        double dx = at.x() - m_pressAt.x();
        bool finish = segue_edge_pan_finishes(dx, m_speed, width());
        double flick = width() > 0 ? m_speed / width() : 0;
        release(finish, finish ? qMax(flick, 0.0) : qMax(-flick, 0.0));
        return true;
    }
    default:
        return false;
    }
}
