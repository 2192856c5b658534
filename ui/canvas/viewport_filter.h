// The rows of a model of boxes on the canvas (posX, posY, boxWidth, boxHeight roles, canvas units)
// that lie near the part of the canvas in view, so the canvas creates items for those alone: a
// graph of a thousand nodes opens with a few dozen node items instead of a thousand.
#pragma once

#include <QRectF>
#include <QSortFilterProxyModel>
#include <QtQml/qqmlregistration.h>

namespace isochron::ui {

/// The source model's rows whose box meets the area around the view, plus the selected ones (a
/// node being dragged keeps its item). The area is the view grown by half its size on every side,
/// and moves only when the view leaves it or is far smaller than it (a pan of a few pixels does
/// not filter again). [ui thread]
class ViewportFilter : public QSortFilterProxyModel {
    Q_OBJECT
    QML_ELEMENT
    /// The part of the canvas in view, in canvas units.
    Q_PROPERTY(QRectF view READ view WRITE setView NOTIFY viewChanged)
    /// The part of the canvas whose rows are kept (the view and a margin around it).
    Q_PROPERTY(QRectF area READ area NOTIFY areaChanged)
public:
    explicit ViewportFilter(QObject* parent = nullptr);

    QRectF view() const { return view_; }
    void setView(const QRectF& view);
    QRectF area() const { return area_; }
    /// How many times the rows were filtered again because the area moved (for tests).
    int refilters() const { return refilters_; }

Q_SIGNALS:
    void viewChanged();
    void areaChanged();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    void findRoles();

    QRectF view_;
    QRectF area_;
    bool viewSet_ = false;
    int refilters_ = 0;
    int xRole_ = -1, yRole_ = -1, widthRole_ = -1, heightRole_ = -1, selectedRole_ = -1;
};

}  // namespace isochron::ui
