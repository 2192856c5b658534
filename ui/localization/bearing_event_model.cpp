#include "ui/localization/bearing_event_model.h"

#include <algorithm>

namespace isochron::ui {

BearingEventModel::BearingEventModel(QObject* parent) : QAbstractListModel(parent) {}

int BearingEventModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(events_.size()); }

QVariant BearingEventModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const BearingEvent& e = at(index.row());
    switch (role) {
        case StartRole: return e.startSeconds;
        case EndRole: return e.endSeconds;
        case AzimuthRole: return e.azimuthDeg;
        case ElevationRole: return e.elevationDeg;
        case ConfidenceRole: return e.confidence;
        case ArrayRole: return e.array;
        case TrackRole: return e.trackId;
        case OpacityRole: return opacityAt(index.row());
        default: return {};
    }
}

QHash<int, QByteArray> BearingEventModel::roleNames() const {
    return {{StartRole, "startTime"}, {EndRole, "endTime"},      {AzimuthRole, "azimuth"}, {ElevationRole, "elevation"},
            {ConfidenceRole, "confidence"}, {ArrayRole, "array"}, {TrackRole, "trackId"},  {OpacityRole, "fade"}};
}

void BearingEventModel::append(const std::vector<BearingEvent>& events) {
    if (events.empty()) return;
    const int added = static_cast<int>(events.size());
    beginInsertRows({}, 0, added - 1);
    for (const BearingEvent& e : events) {
        events_.push_back(e);
        nowSeconds_ = std::max(nowSeconds_, e.endSeconds);
    }
    endInsertRows();
    if (selectedRow_ >= 0) setSelectedRow(selectedRow_ + added);  // the same event stays selected
    const int excess = rowCount() - kMaxRows;
    if (excess > 0) {
        beginRemoveRows({}, kMaxRows, rowCount() - 1);
        events_.erase(events_.begin(), events_.begin() + excess);
        endRemoveRows();
        if (selectedRow_ >= kMaxRows) setSelectedRow(-1);
    }
    Q_EMIT countChanged();
    Q_EMIT clockChanged();
}

void BearingEventModel::advance(double wallSeconds) {
    if (wallSeconds <= 0 || events_.empty()) return;
    nowSeconds_ += wallSeconds;
    Q_EMIT clockChanged();
}

void BearingEventModel::clear() {
    beginResetModel();
    events_.clear();
    nowSeconds_ = 0;
    endResetModel();
    setSelectedRow(-1);
    Q_EMIT countChanged();
    Q_EMIT clockChanged();
}

double BearingEventModel::opacityAt(int row) const {
    if (row < 0 || row >= rowCount()) return 0;
    const BearingEvent& e = at(row);
    return fadedOpacity(nowSeconds_ - e.endSeconds, historySeconds_, e.confidence);
}

void BearingEventModel::setHistorySeconds(double seconds) {
    if (seconds <= 0 || seconds == historySeconds_) return;
    historySeconds_ = seconds;
    Q_EMIT clockChanged();
}

void BearingEventModel::setSelectedRow(int row) {
    row = row < 0 || row >= rowCount() ? -1 : row;
    if (row == selectedRow_) return;
    selectedRow_ = row;
    Q_EMIT selectedRowChanged();
}

void repaintOnChanges(BearingEventModel& events, QQuickItem& plot) {
    QObject::connect(&events, &BearingEventModel::countChanged, &plot, &QQuickItem::update);
    QObject::connect(&events, &BearingEventModel::clockChanged, &plot, &QQuickItem::update);
    QObject::connect(&events, &BearingEventModel::selectedRowChanged, &plot, &QQuickItem::update);
    QObject::connect(&events, &QAbstractItemModel::modelReset, &plot, &QQuickItem::update);
}

}  // namespace isochron::ui
