// Whether Qt's file dialogs can open here, for QML to ask before it opens one.
#pragma once

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

class QQmlEngine;
class QJSEngine;

namespace isochron::ui {

/// QML singleton `DialogSupport`: `problem` is empty when every QML module that QtQuick.Dialogs'
/// non-native implementation loads is importable, else a message naming each missing module and
/// its Debian package. Qt 6.4 crashes the process when that implementation fails to load, so every
/// dialog is opened only when `problem` is empty. Checked once per QML engine. [ui thread]
class DialogSupport : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(QString problem READ problem CONSTANT)
public:
    explicit DialogSupport(QQmlEngine& engine);
    static DialogSupport* create(QQmlEngine* qmlEngine, QJSEngine* jsEngine);

    QString problem() const { return problem_; }

private:
    QString problem_;
};

}  // namespace isochron::ui
