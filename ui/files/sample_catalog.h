// The Samples menu: the graph files shipped in samples/, with their titles.
#pragma once

#include <QObject>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace isochron::ui {

/// Sample graphs found under the samples folder. [ui thread]
class SampleCatalog : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QVariantList samples READ samples CONSTANT)
    Q_PROPERTY(QString folder READ folder CONSTANT)
public:
    explicit SampleCatalog(QObject* parent = nullptr);

    /// {title, path, group} per *.isograph.json except parts used as subgraphs (files with an
    /// "interface"): the graph's name, capitalized (benchmarks, group "Benchmarks", in capitals as
    /// the papers name them); the quick start first, then by group and title.
    QVariantList samples() const { return samples_; }
    QString folder() const { return folder_; }

    /// Where samples are: $ISOCHRON_SAMPLES, else ../share/isochron/samples next to the binary,
    /// else the source tree's samples/ this build came from.
    static QString locateFolder();

private:
    QString folder_;
    QVariantList samples_;
};

}  // namespace isochron::ui
