#include "ui/files/typed_path.h"

#include <QDir>

namespace isochron::ui {

QString resolveTypedPath(const QString& typed, const QString& folder) {
    QString text = typed.trimmed();
    if (text.isEmpty()) return {};
    if (text == "~") text = QDir::homePath();
    else if (text.startsWith("~/")) text = QDir::homePath() + text.mid(1);
    if (QDir::isAbsolutePath(text)) return QDir::cleanPath(text);
    return QDir::cleanPath(QDir(folder).absoluteFilePath(text));
}

QString withDefaultSuffix(const QString& path, const QString& suffix, const QStringList& acceptedSuffixes) {
    if (suffix.isEmpty() || path.isEmpty()) return path;
    const QString name = path.section('/', -1);
    if (name.endsWith(suffix, Qt::CaseInsensitive)) return path;
    for (const QString& accepted : acceptedSuffixes) {
        if (!accepted.isEmpty() && name.endsWith(accepted, Qt::CaseInsensitive)) return path;
    }
    return path + suffix;
}

}  // namespace isochron::ui
