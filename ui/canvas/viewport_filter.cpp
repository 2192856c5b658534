#include "ui/canvas/viewport_filter.h"

namespace isochron::ui {

namespace {

constexpr double kMargin = 0.5;      // of the view's size, on every side
constexpr double kMostAreaPerView = 4;  // an area this many times the view's width is shrunk

}  // namespace

ViewportFilter::ViewportFilter(QObject* parent) : QSortFilterProxyModel(parent) {
    connect(this, &QAbstractProxyModel::sourceModelChanged, this, &ViewportFilter::findRoles);
}

void ViewportFilter::findRoles() {
    xRole_ = yRole_ = widthRole_ = heightRole_ = selectedRole_ = -1;
    if (!sourceModel()) return;
    const QHash<int, QByteArray> roles = sourceModel()->roleNames();
    for (auto role = roles.cbegin(); role != roles.cend(); ++role) {
        if (role.value() == "posX") xRole_ = role.key();
        else if (role.value() == "posY") yRole_ = role.key();
        else if (role.value() == "boxWidth") widthRole_ = role.key();
        else if (role.value() == "boxHeight") heightRole_ = role.key();
        else if (role.value() == "selected") selectedRole_ = role.key();
    }
    invalidateFilter();
}

void ViewportFilter::setView(const QRectF& view) {
    if (view == view_ && viewSet_) return;
    view_ = view;
    viewSet_ = true;
    Q_EMIT viewChanged();
    const bool inside = area_.contains(view_);
    const bool farTooLarge = area_.width() > kMostAreaPerView * view_.width() || area_.height() > kMostAreaPerView * view_.height();
    if (inside && !farTooLarge) return;
    const double dx = view_.width() * kMargin, dy = view_.height() * kMargin;
    area_ = view_.adjusted(-dx, -dy, dx, dy);
    Q_EMIT areaChanged();
    ++refilters_;
    invalidateFilter();
}

bool ViewportFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (xRole_ < 0 || yRole_ < 0 || widthRole_ < 0 || heightRole_ < 0) return true;  // not boxes: keep all
    if (!viewSet_) return true;  // no view yet (a canvas of no size yet keeps none)
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (selectedRole_ >= 0 && index.data(selectedRole_).toBool()) return true;
    const QRectF box(index.data(xRole_).toDouble(), index.data(yRole_).toDouble(), index.data(widthRole_).toDouble(), index.data(heightRole_).toDouble());
    return area_.intersects(box);
}

}  // namespace isochron::ui
