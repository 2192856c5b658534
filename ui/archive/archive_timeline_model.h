// The editor's archive timeline strip: one row per stream of an opened archive file (readArchiveTimeline),
// read off the UI thread, with the time axis all lanes share; it follows the file by itself (a recorder
// adding to it, in this process or another) by looking at the file and its WAL twice a second.
#pragma once

#include <QAbstractListModel>
#include <QThread>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

#include <memory>
#include <vector>

#include "ui/archive/archive_page_check.h"
#include "ui/archive/archive_timeline.h"

namespace isochron::ui {

/// Lanes of one archive file for QML. [ui thread]
class ArchiveTimelineModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    /// The open archive's absolute path, or empty.
    Q_PROPERTY(QString path READ path NOTIFY pathChanged)
    /// Reading the file's lanes (open or reload) is under way.
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    /// Every page of a newly opened file is being read for damage, after its lanes showed (a pass of
    /// its own: the lanes go on following the file meanwhile).
    Q_PROPERTY(bool checking READ checking NOTIFY checkChanged)
    /// Why the last open or reload failed, or empty.
    Q_PROPERTY(QString error READ error NOTIFY loaded)
    /// Why the file is damaged, found by reading every page when it was opened (the archive's own
    /// message, as get, export and replay give it), or empty (also while that check runs).
    Q_PROPERTY(QString damage READ damage NOTIFY checkChanged)
    /// The axis every lane is drawn on: earliest stored instant and latest end over all lanes (seconds).
    Q_PROPERTY(double axisStart READ axisStart NOTIFY loaded)
    Q_PROPERTY(double axisEnd READ axisEnd NOTIFY loaded)
    /// Lanes shown (0 while a newly opened file is read).
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        KindRole,        ///< "signal" or "events"
        ChannelsRole,
        RateRole,        ///< Hz
        ClockRole,
        UnitsRole,
        SummaryRole,     ///< one line: channels, rate, stored length, size
        EmptyRole,
        StartRole,       ///< seconds
        EndRole,
        StoredRole,      ///< [{start, end}] seconds, in every channel
        PartialRole,     ///< [{start, end}] in some channels only
        GapsRole,        ///< [{start, end}] in none
        TicksRole,       ///< [seconds] of stored events
        EventCountRole,
        ItemKindRole,    ///< item streams: "event" or "scalar" (what io.archive_source's type auto reads)
    };

    /// How often the open file is looked at for changes (ms): a stat of the file and its WAL, no read.
    static constexpr int kFollowIntervalMs = 500;

    explicit ArchiveTimelineModel(QObject* parent = nullptr);
    ~ArchiveTimelineModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    QString path() const { return path_; }
    bool loading() const { return reader_ != nullptr; }
    bool checking() const { return check_ != nullptr; }
    QString error() const { return error_; }
    QString damage() const { return damage_; }
    double axisStart() const { return axisStart_; }
    double axisEnd() const { return axisEnd_; }

    /// Read the archive at `pathOrUrl` (a path or file: URL) on a worker thread; `loaded` follows.
    Q_INVOKABLE void open(const QString& pathOrUrl);
    /// open() when the file exists (the graph's archive once a recording made it); whether it did.
    Q_INVOKABLE bool openIfExists(const QString& path);
    /// Read the open archive again (a recorder may have added to it). Also done by itself when the file
    /// or its WAL changes (size or time stamp); rows of streams read before stay rows (views keep their
    /// place), new streams are added at the end.
    Q_INVOKABLE void reload();
    /// Row of the stream `name`, or -1.
    Q_INVOKABLE int rowOf(const QString& name) const;
    /// Metadata of the stream `name` as last read, or null.
    const ArchivedStreamInfo* streamInfo(const QString& name) const;
    /// The axis ticks for [from, to] seconds, at most `maxTicks`: [{t, text}] (ui/archive/time_axis.h).
    Q_INVOKABLE QVariantList axisTicks(double from, double to, int maxTicks) const;
    /// `seconds` as a tick `step` apart reads (axisLabel: "6 h", "2 h 15 min", "1:02:05.5", "12.35 s").
    Q_INVOKABLE QString timeLabel(double seconds, double step) const;

Q_SIGNALS:
    void pathChanged();
    void loadingChanged();
    /// The page check began or ended (damage() says what it found), or its finding was cleared (a file opened).
    void checkChanged();
    void countChanged();
    /// The lanes (or the error) of the last read are in.
    void loaded();

private:
    struct Reading;
    void finish(const std::shared_ptr<Reading>& reading);
    /// Starts the page check of the open file on a thread of its own (after another check ends, if one runs).
    void startCheck();
    void finishCheck(const ArchivePageCheck::Result& result);
    /// Take over `lanes`: changed rows in place when the streams read before are still first, else a reset.
    void takeLanes(std::vector<TimelineLane> lanes);
    /// Size and modification time of the file and of its WAL, as one comparable text.
    QString fileStamp() const;
    void followFile();

    QString path_;
    QString error_;
    QString damage_;
    bool checkDamage_ = false;  // the open file's pages still have to be checked (set by open())
    std::vector<TimelineLane> lanes_;
    double axisStart_ = 0, axisEnd_ = 0;
    QThread* reader_ = nullptr;
    std::unique_ptr<ArchivePageCheck> check_;  // the page check: minutes for a day of 8 channels
    bool readAgain_ = false;  // reload() came while reading
    QTimer follow_;           // looks at the file for changes
    QString readStamp_;       // fileStamp() when the last read began
};

}  // namespace isochron::ui
