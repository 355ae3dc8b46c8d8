// segue-qt-widgets-demo: three pages of a QWidget app (a list of places, a picture, a booking form) in a
// SegueStackedWidget, switched with the buttons or the arrow keys.
//
//   segue-qt-widgets-demo [--animator NAME] [--config FILE]
//   segue-qt-widgets-demo --frames DIR --animators A,B,... --fractions F,F,... [--from PAGE --to PAGE]
//       holds each animator's switch at each fraction and writes the stack's pictures: DIR/rest-PAGE.png
//       (each page at rest), DIR/A/frame-F.png (the stack then), DIR/A/page-PAGE-F.png (the pages then)
//   segue-qt-widgets-demo --swipe
//       shows the picture, then drags from the left edge past half way and lets go (back to the list),
//       shows the picture again and drags a little, rests and lets go (it stays); prints
//       "swipe|CURRENT_INDEX" after each
//   segue-qt-widgets-demo --switches N --interval MS [--remove-mid]
//       switches to the next page every MS milliseconds (during transitions too), N times, then prints
//       the stack's state; with --remove-mid, removes the arriving page half way through one switch first.
// Every switch's end prints "finished|ANIMATOR|COMPLETED|FELL_BACK|REASON"; SIGTERM quits cleanly.
#include <SegueStackedWidget.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QSocketNotifier>
#include <QElapsedTimer>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

static int quitPipe[2];

class PicturePage : public QWidget {
public:
    PicturePage() { setObjectName("picture"); }

protected:
    void paintEvent(QPaintEvent *) override {
        QPainter p(this);
        QLinearGradient sky(0, 0, 0, height());
        sky.setColorAt(0, QColor(40, 90, 170));
        sky.setColorAt(0.6, QColor(250, 170, 90));
        sky.setColorAt(1, QColor(60, 40, 50));
        p.fillRect(rect(), sky);
        p.setRenderHint(QPainter::Antialiasing);
        p.setBrush(QColor(30, 30, 45));
        p.setPen(Qt::NoPen);
        QPolygonF mountains;
        mountains << QPointF(0, height() * 0.75) << QPointF(width() * 0.3, height() * 0.45) << QPointF(width() * 0.55, height() * 0.65)
                  << QPointF(width() * 0.8, height() * 0.4) << QPointF(width(), height() * 0.7) << QPointF(width(), height()) << QPointF(0, height());
        p.drawPolygon(mountains);
        p.setBrush(QColor(255, 240, 200));
        p.drawEllipse(QPointF(width() * 0.7, height() * 0.2), 40, 40);
        p.setPen(Qt::white);
        QFont font = p.font();
        font.setPointSize(22);
        font.setBold(true);
        p.setFont(font);
        p.drawText(QRectF(0, height() * 0.82, width(), 60), Qt::AlignCenter, "Lofoten");
    }
};

static QWidget *listPage() {
    auto *page = new QWidget;
    page->setObjectName("list");
    page->setAutoFillBackground(true);
    QPalette palette = page->palette();
    palette.setColor(QPalette::Window, QColor(245, 245, 240));
    page->setPalette(palette);
    auto *layout = new QVBoxLayout(page);
    auto *title = new QLabel("<h2>Places</h2>");
    layout->addWidget(title);
    auto *list = new QListWidget;
    const char *places[] = { "Lofoten", "Reine", "Henningsvær", "Svolvær", "Nusfjord", "Å", "Hamnøy", "Sakrisøy" };
    const QColor colours[] = { QColor(200, 80, 60), QColor(60, 140, 90), QColor(70, 90, 190), QColor(220, 170, 40) };
    int i = 0;
    for (const char *place : places) {
        auto *item = new QListWidgetItem(QString::fromUtf8(place), list);
        item->setBackground(colours[i++ % 4].lighter(160));
        item->setSizeHint(QSize(0, 64));
    }
    layout->addWidget(list);
    return page;
}

static QWidget *formPage() {
    auto *page = new QWidget;
    page->setObjectName("form");
    page->setAutoFillBackground(true);
    QPalette palette = page->palette();
    palette.setColor(QPalette::Window, QColor(225, 235, 250));
    page->setPalette(palette);
    auto *layout = new QFormLayout(page);
    layout->addRow(new QLabel("<h2>Booking</h2>"));
    layout->addRow("Name", new QLineEdit("Ada"));
    layout->addRow("Arrival", new QLineEdit("2026-07-01"));
    layout->addRow("Nights", new QLineEdit("4"));
    layout->addRow(new QPushButton("Book"));
    return page;
}

static void printFinished(const QString &animator, bool completed, bool fellBack, const QString &reason) {
    std::printf("finished|%s|%d|%d|%s\n", qPrintable(animator), completed, fellBack, qPrintable(QString(reason).replace('\n', ' ')));
    std::fflush(stdout);
}

static QString option(const QStringList &args, const QString &name, const QString &fallback = QString()) {
    int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args[i + 1] : fallback;
}

static void settle() {
    for (int i = 0; i < 5; i++) QApplication::processEvents();
}

// Lets the held transition's frames run until the plugin has answered (5 s at most).
static void answered(QObject *stack) {
    QElapsedTimer waited;
    waited.start();
    while (stack->property("late").toBool() && waited.elapsed() < 5000) QApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    settle();
}

static int frames(SegueStackedWidget &stack, const QStringList &args) {
    QString dir = option(args, "--frames"), from = option(args, "--from", "list"), to = option(args, "--to", "picture");
    QStringList fractions = option(args, "--fractions", "0.5").split(',');
    QWidget *fromPage = stack.findChild<QWidget *>(from), *toPage = stack.findChild<QWidget *>(to);
    if (!fromPage || !toPage) return 2;
    stack.setCurrentWidget(fromPage);
    stack.finishTransition(true);
    settle();
    for (int i = 0; i < stack.count(); i++) {
        stack.setCurrentIndex(i);
        stack.finishTransition(true);
        settle();
        stack.widget(i)->grab().save(dir + "/rest-" + stack.widget(i)->objectName() + ".png");
    }
    stack.setCurrentWidget(fromPage);
    stack.finishTransition(true);
    for (const QString &animator : option(args, "--animators", "default").split(',')) {
        QDir(dir).mkpath(animator);
        stack.setAnimator(animator);
        for (const QString &fraction : fractions) {
            stack.setHoldFraction(fraction.toDouble());
            stack.setCurrentWidget(toPage);
            answered(&stack);
            stack.grab().save(dir + "/" + animator + "/frame-" + fraction + ".png");
            fromPage->grab().save(dir + "/" + animator + "/page-" + from + "-" + fraction + ".png");
            toPage->grab().save(dir + "/" + animator + "/page-" + to + "-" + fraction + ".png");
            stack.finishTransition(false);
            stack.setHoldFraction(-1);
            settle();
        }
    }
    std::printf("done\n");
    std::fflush(stdout);
    return 0;
}

// What a pointer does, sent as the window system would: to the widget under the press, then to it alone.
static void mouse(QWidget *window, QWidget *&pressed, QEvent::Type type, QPoint at) {
    if (type == QEvent::MouseButtonPress) pressed = window->childAt(at) ? window->childAt(at) : window;
    Qt::MouseButtons held = type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::LeftButton;
    QPoint global = window->mapToGlobal(at);
    QMouseEvent event(type, pressed->mapFromGlobal(global), window->mapTo(window, at), global, Qt::LeftButton, held, Qt::NoModifier);
    QApplication::sendEvent(pressed, &event);
    settle();
}

static void swipe(QWidget *window, SegueStackedWidget &stack, const QList<int> &xs, int rest) {
    stack.setCurrentIndex(1);
    stack.finishTransition(true);
    settle();
    QWidget *pressed = nullptr;
    mouse(window, pressed, QEvent::MouseButtonPress, QPoint(4, 400));
    for (int x : xs) {
        QThread::msleep(20);
        mouse(window, pressed, QEvent::MouseMove, QPoint(x, 400));
    }
    std::printf("swiping|%d\n", stack.isTransitionRunning());
    QThread::msleep(rest);
    mouse(window, pressed, QEvent::MouseButtonRelease, QPoint(xs.last(), 400));
    QElapsedTimer waited;
    waited.start();
    while (stack.isTransitionRunning() && waited.elapsed() < 10000) QApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    std::printf("swipe|%d\n", stack.currentIndex());
    std::fflush(stdout);
}

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    QStringList args = app.arguments();
    // SIGTERM ends the app through its event loop, so that libsegue's player is freed.
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, quitPipe) == 0) {
        std::signal(SIGTERM, [](int) { (void)!write(quitPipe[1], "q", 1); });
        sigset_t term;  // a parent may have started it with SIGTERM blocked
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        sigprocmask(SIG_UNBLOCK, &term, nullptr);
        auto *quit = new QSocketNotifier(quitPipe[0], QSocketNotifier::Read, &app);
        QObject::connect(quit, &QSocketNotifier::activated, &app, &QApplication::quit);
    }
    QWidget window;
    window.setWindowTitle("Segue widgets demo");
    auto *stack = new SegueStackedWidget;
    stack->setAnimator(option(args, "--animator"));
    stack->setConfigFile(option(args, "--config"));
    stack->addWidget(listPage());
    stack->addWidget(new PicturePage);
    stack->addWidget(formPage());
    QObject::connect(stack, &SegueStackedWidget::transitionFinished, printFinished);
    auto *layout = new QVBoxLayout(&window);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    bool frameMode = args.contains("--frames"), switchMode = args.contains("--switches") || args.contains("--swipe");
    if (frameMode || switchMode) {
        QPalette black = stack->palette();
        black.setColor(QPalette::Window, Qt::black);
        stack->setPalette(black);
        stack->setAutoFillBackground(true);
        window.setFixedSize(390, 844);
    } else {
        auto *buttons = new QHBoxLayout;
        auto *back = new QPushButton("Back"), *next = new QPushButton("Next");
        QObject::connect(back, &QPushButton::clicked, stack, [stack] { stack->setCurrentIndex(qMax(0, stack->currentIndex() - 1)); });
        QObject::connect(next, &QPushButton::clicked, stack,
                         [stack] { stack->setCurrentIndex(qMin(stack->count() - 1, stack->currentIndex() + 1)); });
        buttons->addWidget(back);
        buttons->addWidget(next);
        layout->addLayout(buttons);
        window.resize(390, 844);
    }
    layout->addWidget(stack);
    // The pages' own palettes stay theirs.
    for (int i = 0; i < stack->count(); i++) stack->widget(i)->setAutoFillBackground(stack->widget(i)->objectName() != "picture");
    window.show();
    settle();
    if (frameMode) return frames(*stack, args);
    if (args.contains("--swipe")) {
        swipe(&window, *stack, { 20, 60, 120, 180, 240, 280 }, 200);  // past half way, rested: back to the list
        swipe(&window, *stack, { 20, 40, 60, 80 }, 200);              // a little, rested: stays
        return 0;
    }
    if (switchMode) {
        int left = option(args, "--switches").toInt(), finished = 0;
        QObject::connect(stack, &SegueStackedWidget::transitionFinished, [&finished] { finished++; });
        if (args.contains("--remove-mid")) {
            QWidget *arriving = stack->widget(1);
            stack->setHoldFraction(0.5);
            stack->setCurrentIndex(1);
            settle();
            stack->removeWidget(arriving);
            delete arriving;
            stack->setHoldFraction(-1);
            std::printf("removed|%d|%d|%d\n", stack->count(), stack->currentIndex(), stack->isTransitionRunning());
        }
        auto *timer = new QTimer(&app);
        QObject::connect(timer, &QTimer::timeout, [&] {
            if (left-- > 0) {
                stack->setCurrentIndex((stack->currentIndex() + 1) % stack->count());
                return;
            }
            timer->stop();
            stack->finishTransition(true);
            int shown = 0;
            for (int i = 0; i < stack->count(); i++) shown += stack->widget(i)->isVisible();
            std::printf("state|%d|%d|%d|%d|%d\n", stack->currentIndex(), stack->currentWidget() && stack->currentWidget()->isVisible(), shown,
                        stack->isTransitionRunning(), finished);
            std::fflush(stdout);
            app.quit();
        });
        timer->start(option(args, "--interval", "20").toInt());
    }
    return app.exec();
}
