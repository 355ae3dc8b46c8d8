// The QML module's plugin for Qt 5 (Qt 6 generates its own from qt_add_qml_module).
#include "SegueStackView.h"

#include <QQmlExtensionPlugin>

class SeguePlugin : public QQmlExtensionPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID QQmlExtensionInterface_iid)
public:
    void registerTypes(const char *uri) override { qmlRegisterType<SegueStackView>(uri, 1, 0, "SegueStackView"); }
};

#include "segueplugin5.moc"
