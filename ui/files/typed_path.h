// What a path typed into the editor's file dialog names. No Qt widgets; plain path rules.
#pragma once

#include <QString>
#include <QStringList>

namespace isochron::ui {

/// The absolute, cleaned path `typed` names when the dialog shows `folder`: an absolute path as it
/// is, "~" or "~/..." under the home folder, anything else relative to `folder` ("." and ".."
/// resolved). Surrounding spaces are ignored; empty text gives empty. [any thread]
QString resolveTypedPath(const QString& typed, const QString& folder);

/// `path` with `suffix` (".isograph.json") appended unless its file name already ends with it or
/// with one of `acceptedSuffixes` (".json"). Empty suffix: `path`. [any thread]
QString withDefaultSuffix(const QString& path, const QString& suffix, const QStringList& acceptedSuffixes = {});

}  // namespace isochron::ui
