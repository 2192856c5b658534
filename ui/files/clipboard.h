// The system clipboard for QML (which has none), so graphs copy and paste between windows and apps.
#pragma once

#include <QObject>
#include <QtQml/qqmlregistration.h>

namespace isochron::ui {

/// Plain-text access to the system clipboard. [ui thread]
class Clipboard : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
public:
    explicit Clipboard(QObject* parent = nullptr);
    /// The clipboard's text, and replacing it.
    Q_INVOKABLE QString text() const;
    Q_INVOKABLE void setText(const QString& text);
};

}  // namespace isochron::ui
