// The localization view's event list: every bearing that arrived, newest first, with the stream
// time that ages them (the newest event's end, advanced by wall time while the graph runs, frozen
// when it stops) and the selected event, which the plot highlights.
#pragma once

#include <QAbstractListModel>
#include <QQuickItem>
#include <QtQml/qqmlregistration.h>

#include <vector>

#include "ui/localization/bearing_event.h"

namespace isochron::ui {

/// Bearings as list rows (newest first), bounded to the newest `kMaxRows`. [ui thread]
class BearingEventModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by RunController.localization")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    /// Seconds a mark stays on the plot, fading out (default 30).
    Q_PROPERTY(double historySeconds READ historySeconds WRITE setHistorySeconds NOTIFY clockChanged)
    /// Stream time (s) that ages the events.
    Q_PROPERTY(double nowSeconds READ nowSeconds NOTIFY clockChanged)
    /// The highlighted row, -1 for none.
    Q_PROPERTY(int selectedRow READ selectedRow WRITE setSelectedRow NOTIFY selectedRowChanged)
public:
    static constexpr int kMaxRows = 2000;
    enum Role { StartRole = Qt::UserRole + 1, EndRole, AzimuthRole, ElevationRole, ConfidenceRole, ArrayRole, TrackRole, OpacityRole };

    explicit BearingEventModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Add arrived events (oldest first); the clock moves to the newest end if it is later.
    void append(const std::vector<BearingEvent>& events);
    /// Move the clock on by `wallSeconds` (the ui's poll interval while running).
    void advance(double wallSeconds);
    void clear();
    /// The event shown in `row` (0 = newest). [row < count]
    const BearingEvent& at(int row) const { return events_[events_.size() - 1 - static_cast<std::size_t>(row)]; }
    /// Opacity of `row`'s mark now (fadedOpacity of its age and confidence).
    Q_INVOKABLE double opacityAt(int row) const;

    double historySeconds() const { return historySeconds_; }
    void setHistorySeconds(double seconds);
    double nowSeconds() const { return nowSeconds_; }
    int selectedRow() const { return selectedRow_; }
    void setSelectedRow(int row);

Q_SIGNALS:
    void countChanged();
    void clockChanged();
    void selectedRowChanged();

private:
    std::vector<BearingEvent> events_;  // oldest first
    double historySeconds_ = 30;
    double nowSeconds_ = 0;
    int selectedRow_ = -1;
};

/// Repaints `plot` whenever `events` changes what a plot of it shows (rows, clock, selection). [ui thread]
void repaintOnChanges(BearingEventModel& events, QQuickItem& plot);

}  // namespace isochron::ui
