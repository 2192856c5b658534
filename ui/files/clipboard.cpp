#include "ui/files/clipboard.h"

#include <QClipboard>
#include <QGuiApplication>

namespace isochron::ui {

Clipboard::Clipboard(QObject* parent) : QObject(parent) {}

QString Clipboard::text() const { return QGuiApplication::clipboard()->text(); }

void Clipboard::setText(const QString& text) { QGuiApplication::clipboard()->setText(text); }

}  // namespace isochron::ui
