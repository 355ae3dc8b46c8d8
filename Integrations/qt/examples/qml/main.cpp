// segue-qt-qml-demo: main.qml's pages in a SegueStackView (import Segue 1.0); click or arrow keys to push
// and pop.
//
//   segue-qt-qml-demo [--animator NAME]
//   segue-qt-qml-demo --frames DIR --animators A,B,... --fractions F,F,... [--to PAGE]
//       holds the push from the list to PAGE (picture) with each animator at each fraction and writes
//       the window's pictures: DIR/rest-PAGE.png (each page at rest), DIR/A/frame-F.png, DIR/A/page-PAGE-F.png,
//       and prints "held|A|F|meshes HOW" (HOW: the view's meshDrawing then)
//   segue-qt-qml-demo --benchmark N [--animator NAME] [--fade]
//       pushes N times with a SegueStackView (SpringSlide unless named) and with Qt Quick Controls'
//       StackView (its own slide; with --fade, a slide that cross-fades the pages as SpringSlide does)
//       in one window (both clipped), and prints the GUI thread's CPU time per frame drawn
//       during each (median and 90th percentile, milliseconds) and how long a push lasted: Qt Quick
//       renders on that thread here (offscreen, or QSG_RENDER_LOOP=basic); frames at most every 16 ms
//       (QT_QPA_UPDATE_IDLE_TIME=16 unless set)
//   segue-qt-qml-demo --swipe
//       pushes the picture, then drags from the left edge past half way and lets go (the pop finishes),
//       pushes again and drags a little, rests and lets go (the pop goes back); prints "swipe|DEPTH|CURRENT"
//       after each
//   segue-qt-qml-demo --switches N --interval MS
//       pushes and pops every MS milliseconds (during transitions too), N times, then prints the state
//   segue-qt-qml-demo --installed ...
//       finds the module only where an app would (not in the build folder)
// Every transition's end prints "finished|ANIMATOR|COMPLETED|FELL_BACK|REASON". The module is found in
// the build folder first, then where QML_IMPORT_PATH (Qt 6) or QML2_IMPORT_PATH (Qt 5) and Qt say.
#include <QDir>
#include <QEventLoop>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QThread>
#include <QQmlApplicationEngine>
#include <QQmlComponent>
#include <QQuickItem>
#include <QQuickWindow>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

class Printer : public QObject {
    Q_OBJECT
public:
    int finished = 0;
public Q_SLOTS:
    void print(const QString &animator, bool completed, bool fellBack, const QString &reason) {
        finished++;
        std::printf("finished|%s|%d|%d|%s\n", qPrintable(animator), completed, fellBack, qPrintable(reason));
        std::fflush(stdout);
    }
};

static QString option(const QStringList &args, const QString &name, const QString &fallback = QString()) {
    int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args[i + 1] : fallback;
}

static QQuickItem *call(QObject *stack, const char *method, const QVariant &argument = QVariant()) {
    QQuickItem *item = nullptr;
    if (argument.isValid()) QMetaObject::invokeMethod(stack, method, Q_RETURN_ARG(QQuickItem *, item), Q_ARG(QVariant, argument));
    else QMetaObject::invokeMethod(stack, method, Q_RETURN_ARG(QQuickItem *, item));
    return item;
}

static void settle() {
    for (int i = 0; i < 5; i++) QGuiApplication::processEvents();
}

// Waits until `window` is on the screen and has drawn a frame (10 s at most). On a display server (Qt 5,
// Qt 6 with OpenGL) the window is exposed some time after it is shown: a busy machine may take longer
// than a few turns of the event loop, and a grab before it pictures the window blank.
static void shown(QQuickWindow *window) {
    QElapsedTimer waited;
    waited.start();
    bool drawn = false;
    QMetaObject::Connection swapped = QObject::connect(window, &QQuickWindow::frameSwapped, [&drawn] { drawn = true; });
    window->update();
    while ((!window->isExposed() || !drawn) && waited.elapsed() < 10000) QGuiApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    QObject::disconnect(swapped);
    settle();
}

// Lets the held transition's frames run until the plugin has answered (5 s at most).
static void answered(QObject *stack) {
    QElapsedTimer waited;
    waited.start();
    while (stack->property("late").toBool() && waited.elapsed() < 5000) QGuiApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    settle();
}

static int frames(QQuickWindow *window, QObject *stack, const QStringList &args) {
    QString dir = option(args, "--frames"), to = option(args, "--to", "picture");
    QVariantMap pages = window->property("pages").toMap();
    QStringList fractions = option(args, "--fractions", "0.5").split(',');
    shown(window);
    window->grabWindow().save(dir + "/rest-list.png");
    for (const QString &name : pages.keys()) {
        if (name == "list") continue;
        call(stack, "push", pages[name]);
        QMetaObject::invokeMethod(stack, "finishTransition");
        settle();
        window->grabWindow().save(dir + "/rest-" + name + ".png");
        call(stack, "pop");
        QMetaObject::invokeMethod(stack, "finishTransition");
        settle();
    }
    for (const QString &animator : option(args, "--animators", "default").split(',')) {
        QDir(dir).mkpath(animator);
        stack->setProperty("animator", animator);
        for (const QString &fraction : fractions) {
            stack->setProperty("holdFraction", fraction.toDouble());
            call(stack, "push", pages[to]);
            answered(stack);
            window->grabWindow();  // a page's layer (made as it began to fade) is drawn from the next frame on
            window->grabWindow().save(dir + "/" + animator + "/frame-" + fraction + ".png");
            std::printf("held|%s|%s|meshes %s\n", qPrintable(animator), qPrintable(fraction), qPrintable(stack->property("meshDrawing").toString()));
            QFile::copy(dir + "/rest-list.png", dir + "/" + animator + "/page-list-" + fraction + ".png");
            QFile::copy(dir + "/rest-" + to + ".png", dir + "/" + animator + "/page-" + to + "-" + fraction + ".png");
            QMetaObject::invokeMethod(stack, "finishTransition");
            stack->setProperty("holdFraction", -1.0);
            call(stack, "pop");
            QMetaObject::invokeMethod(stack, "finishTransition");
            settle();
        }
    }
    std::printf("done\n");
    std::fflush(stdout);
    return 0;
}

static double threadSeconds() {
    timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + now.tv_nsec / 1e9;
}

// The GUI thread's CPU time for each frame swapped while `stack` is busy, over `runs` pushes made by the
// window's function PREFIXPush (each popped at once afterwards by PREFIXPop); `seconds`: how long a push
// lasted, on average.
static std::vector<double> frameTimes(QQuickWindow *window, QObject *stack, const QByteArray &prefix, int runs, double *seconds = nullptr) {
    std::vector<double> times;
    double last = threadSeconds();
    bool measuring = false;
    auto swapped = QObject::connect(window, &QQuickWindow::frameSwapped, [&] {
        double now = threadSeconds();
        if (measuring) times.push_back((now - last) * 1000);
        last = now;
    });
    double wall = 0;
    QElapsedTimer took;
    for (int i = 0; i < runs; i++) {
        last = threadSeconds();
        measuring = true;
        took.start();
        // Waits in an event loop (not spinning: the thread's time is the frames') until it is no longer busy, 10 s at most.
        QEventLoop loop;
        QObject::connect(stack, SIGNAL(busyChanged()), &loop, SLOT(quit()));
        QTimer::singleShot(10000, &loop, &QEventLoop::quit);
        QMetaObject::invokeMethod(window, prefix + "Push");
        if (stack->property("busy").toBool()) loop.exec();
        measuring = false;
        wall += took.nsecsElapsed() / 1e9;
        QMetaObject::invokeMethod(window, prefix + "Pop");
        settle();
    }
    QObject::disconnect(swapped);
    if (seconds) *seconds = wall / runs;
    std::sort(times.begin(), times.end());
    return times;
}

static int benchmark(QQmlApplicationEngine &engine, const QStringList &args) {
    engine.load(QUrl(QStringLiteral("qrc:/bench.qml")));
    auto *window = engine.rootObjects().isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(engine.rootObjects().first());
    if (!window) return 1;
    QObject *segue = window->property("segue").value<QObject *>(), *qt = window->property("qtStack").value<QObject *>();
    segue->setProperty("animator", option(args, "--animator", "SpringSlide"));
    int runs = option(args, "--benchmark", "20").toInt();
    if (args.contains("--fade")) QMetaObject::invokeMethod(window, "fadeStackView");
    settle();
    frameTimes(window, segue, "segue", 2);  // the worker started, the pages drawn once
    frameTimes(window, qt, "qt", 2);
    double ourSeconds = 0, theirSeconds = 0;
    std::vector<double> ours = frameTimes(window, segue, "segue", runs, &ourSeconds), theirs = frameTimes(window, qt, "qt", runs, &theirSeconds);
    auto at = [](const std::vector<double> &v, double q) { return v.empty() ? 0.0 : v[std::min(v.size() - 1, size_t(q * v.size()))]; };
    std::printf("segue|%s|frames %zu|%.2f s a push|median %.3f ms|p90 %.3f ms\n", qPrintable(segue->property("animator").toString()), ours.size(), ourSeconds, at(ours, 0.5), at(ours, 0.9));
    std::printf("stackview|%s|frames %zu|%.2f s a push|median %.3f ms|p90 %.3f ms\n", args.contains("--fade") ? "push slid and faded" : "push", theirs.size(), theirSeconds, at(theirs, 0.5), at(theirs, 0.9));
    std::printf("ratio|median %.2fx|p90 %.2fx\n", at(ours, 0.5) / at(theirs, 0.5), at(ours, 0.9) / at(theirs, 0.9));
    return 0;
}

static void mouse(QQuickWindow *window, QEvent::Type type, QPointF at) {
    Qt::MouseButtons held = type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::LeftButton;
    QMouseEvent event(type, at, at, window->mapToGlobal(at.toPoint()), Qt::LeftButton, held, Qt::NoModifier);
    QGuiApplication::sendEvent(window, &event);
    settle();
}

// A drag from x = 4 to each of `xs` (20 ms apart), a rest of `rest` ms, the release; then the state.
static void swipe(QQuickWindow *window, QObject *stack, const QList<double> &xs, int rest) {
    QVariantMap pages = window->property("pages").toMap();
    call(stack, "push", pages["picture"]);
    QMetaObject::invokeMethod(stack, "finishTransition");
    settle();
    mouse(window, QEvent::MouseButtonPress, QPointF(4, 400));
    for (double x : xs) {
        QThread::msleep(20);
        mouse(window, QEvent::MouseMove, QPointF(x, 400));
    }
    std::printf("swiping|%d\n", stack->property("busy").toBool());
    QThread::msleep(rest);
    mouse(window, QEvent::MouseButtonRelease, QPointF(xs.last(), 400));
    QEventLoop loop;
    QObject::connect(stack, SIGNAL(busyChanged()), &loop, SLOT(quit()));
    QTimer::singleShot(10000, &loop, &QEventLoop::quit);
    if (stack->property("busy").toBool()) loop.exec();
    auto *current = stack->property("currentItem").value<QQuickItem *>();
    std::printf("swipe|%d|%s\n", stack->property("depth").toInt(), current ? qPrintable(current->objectName()) : "");
    std::fflush(stdout);
}

int main(int argc, char **argv) {
    // The benchmark draws a frame every 16 ms or more, as a 60 Hz display would: without a display's
    // vsync (offscreen, Xvfb) Qt draws the next frame 5 ms after one is asked for, and StackView's
    // push then drew frames 6 ms apart, most of them nearly free (0.16 ms at the median against
    // 0.82 ms 17 ms apart), while the view's timer drew one every 16 ms.
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--benchmark") && !qEnvironmentVariableIsSet("QT_QPA_UPDATE_IDLE_TIME")) qputenv("QT_QPA_UPDATE_IDLE_TIME", "16");
    }
    QGuiApplication app(argc, argv);
    QStringList args = app.arguments();
    QQmlApplicationEngine engine;
    // --installed: only where Qt and QML_IMPORT_PATH (QML2_IMPORT_PATH for Qt 5) say, as any app.
    if (!args.contains("--installed")) engine.addImportPath(QStringLiteral(SEGUE_QML_BUILD_DIR));
    if (args.contains("--benchmark")) return benchmark(engine, args);
    engine.load(QUrl(QStringLiteral("qrc:/main.qml")));
    auto *window = engine.rootObjects().isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(engine.rootObjects().first());
    QObject *stack = window ? window->findChild<QObject *>("stack") : nullptr;
    if (!stack) {
        std::fprintf(stderr, "segue-qt-qml-demo: main.qml did not load (is the Segue module built or on QML_IMPORT_PATH?)\n");
        return 1;
    }
    Printer printer;
    QObject::connect(stack, SIGNAL(transitionFinished(QString, bool, bool, QString)), &printer, SLOT(print(QString, bool, bool, QString)));
    stack->setProperty("animator", option(args, "--animator"));
    if (args.contains("--frames")) return frames(window, stack, args);
    if (args.contains("--swipe")) {
        settle();
        swipe(window, stack, { 20, 60, 120, 180, 240, 280 }, 200);  // past half way, rested: finishes
        if (stack->property("depth").toInt() == 2) call(stack, "pop");
        QMetaObject::invokeMethod(stack, "finishTransition");
        swipe(window, stack, { 20, 40, 60, 80 }, 200);  // a little, rested: goes back
        return 0;
    }
    int left = option(args, "--switches").toInt();
    QVariantMap pages = window->property("pages").toMap();
    if (args.contains("--switches")) {
        auto *timer = new QTimer(&app);
        QObject::connect(timer, &QTimer::timeout, [&, timer] {
            int depth = stack->property("depth").toInt();
            if (left-- > 0) {
                if (depth < 3) call(stack, "push", pages[depth == 1 ? "picture" : "form"]);
                else call(stack, "pop");
                return;
            }
            timer->stop();
            QMetaObject::invokeMethod(stack, "finishTransition");
            auto *current = stack->property("currentItem").value<QQuickItem *>();
            int shown = 0;
            for (QQuickItem *child : qobject_cast<QQuickItem *>(stack)->childItems()) shown += child->isVisible();
            std::printf("state|%d|%s|%d|%d|%d\n", stack->property("depth").toInt(), current ? qPrintable(current->objectName()) : "",
                        shown, stack->property("busy").toBool(), printer.finished);
            std::fflush(stdout);
            app.quit();
        });
        timer->start(option(args, "--interval", "20").toInt());
    }
    return app.exec();
}

#include "main.moc"
