// Follows a telemetry file as another process writes it (`isochron-run --telemetry`, or rank 0's
// FILE.rank0.jsonl under mpirun, which holds every rank's nodes): each complete new line becomes a
// snapshot for a TelemetryStore. Nodes keep one order over the whole file, new ids appended as they
// first appear (another rank's nodes arrive with its first snapshot), so a node's index never changes.
#pragma once

#include <QFile>
#include <QString>

#include <map>
#include <string>
#include <vector>

#include "engine/telemetry/telemetry_snapshot.h"

namespace isochron::ui {

/// Reads what a run appended to its telemetry file since the last call. [ui thread]
class TelemetryFileFollower {
public:
    /// Follow `path` (it need not exist yet: a run about to start creates it).
    explicit TelemetryFileFollower(QString path);

    /// Every complete line appended since the last call, as snapshots whose node and output indices
    /// follow nodeIds(). A half-written last line waits for its newline. On a line that is not a
    /// telemetry snapshot, stops there with error() "FILE:LINE: field: what" and returns the lines before.
    std::vector<TelemetrySnapshot> readNew();
    /// Every node id seen so far, in first-seen order, and those that are outputs.
    const std::vector<std::string>& nodeIds() const { return nodeIds_; }
    const std::vector<std::string>& outputIds() const { return outputIds_; }
    /// Why reading stopped ("" while it goes on).
    const QString& error() const { return error_; }
    const QString& path() const { return path_; }
    /// Lines read so far.
    int lines() const { return lineNumber_; }

private:
    TelemetrySnapshot indexed(const std::string& text);

    QString path_;
    QFile file_;
    qint64 offset_ = 0;
    std::string partial_;  // the start of a line whose newline has not been written yet
    int lineNumber_ = 0;
    QString error_;
    std::vector<std::string> nodeIds_, outputIds_;
    std::map<std::string, int, std::less<>> indexOf_;
};

}  // namespace isochron::ui
