// A live recording ("Record this wire") whose disk fills: after Stop, the archive is whole only
// together with its write-ahead log. The problems panel said so only while the run went on, and Stop
// took it away; now the row stays until the log is folded into the file (then the archive file
// alone holds everything) or the user dismisses it. The "full disk" is this process's file size
// limit (RLIMIT_FSIZE, lowered for the second recording only, to 128 KiB above the archive file's size):
// SQLite's writes then fail with EFBIG, as on a full card with ENOSPC, the log's first and then the
// file's as the log is folded in.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <csignal>
#include <functional>
#include <sys/resource.h>

#include "engine/archive/archive_store.h"
#include "ui/model/graph_document.h"
#include "ui/model/problem_list_model.h"
#include "ui/run/run_controller.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

bool waitUntil(const std::function<bool()>& done, int milliseconds = 30000) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

/// While it lives, files of this process cannot grow past `bytes`: a write beyond fails with EFBIG
/// (SIGXFSZ ignored) as on a full disk.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        REQUIRE(getrlimit(RLIMIT_FSIZE, &before_) == 0);
        previousHandler_ = std::signal(SIGXFSZ, SIG_IGN);
        rlimit lowered = before_;
        lowered.rlim_cur = bytes;  // the soft limit only: it can be raised back
        REQUIRE(setrlimit(RLIMIT_FSIZE, &lowered) == 0);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &before_);
        std::signal(SIGXFSZ, previousHandler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit before_{};
    void (*previousHandler_)(int) = SIG_DFL;
};

}  // namespace

TEST_CASE("a live recording left whole only with its write-ahead log says so after Stop, until the log is folded or the message dismissed", "[ui][run][archive]") {
    for (const bool dismissed : {false, true}) {
        DYNAMIC_SECTION((dismissed ? "dismissed by the user" : "gone once the log is folded in")) {
            QTemporaryDir folder;
            const QString archive = folder.filePath("full.archive.sqlite");
            const QString log = archive + "-wal";
            GraphDocument document;
            document.addNode("generators.signal_generator", 0, 0);  // 48 kHz: 1.9 MB/s of f32 at pace 10
            REQUIRE(document.setParameter("signal_generator", "duration", 600).isEmpty());
            REQUIRE(document.setParameter("signal_generator", "block", 4800).isEmpty());
            REQUIRE(document.setParameter("signal_generator", "pace", 10).isEmpty());
            document.addNode("io.null_sink", 240, 0);
            REQUIRE(document.connectPorts("signal_generator", "out", "null_sink", "in").isEmpty());
            RunController run;
            run.setDocument(&document);
            REQUIRE(run.start());
            REQUIRE(waitUntil([&] { return run.state() == "running"; }));
            const auto atRisk = [&] { return document.problems()->problemsOf("data at risk"); };
            const QString wire = "signal_generator.out>null_sink.in";
            const auto record = [&] {
                const QString recorder = document.recordWire(wire);
                REQUIRE(!recorder.isEmpty());
                REQUIRE(document.setParameter(recorder, "path", archive).isEmpty());
                REQUIRE(run.liveRecorders() == QStringList{recorder});
                return recorder;
            };
            // A first recording fills the file (its log folded in at Stop recording): the disk then
            // has room for the log of the next one, but not for the file to take it in.
            record();
            REQUIRE(waitUntil([&] { return QFileInfo(log).size() >= (4 << 20); }));
            REQUIRE(document.stopRecordingWire(wire));
            REQUIRE(QFileInfo(log).size() == 0);
            CHECK(atRisk().empty());
            QString recorder;
            {
                const FileSizeLimit full(static_cast<rlim_t>(QFileInfo(archive).size()) + (128 << 10));
                recorder = record();
                // The disk refuses a write: the recording stops, saying so while the run goes on.
                REQUIRE(waitUntil([&] { return !document.problems()->problemsOf("live recording").empty(); }));
                CHECK_THAT(document.problems()->problemsOf("live recording").front().message, Catch::Contains(archive.toStdString()));
                run.stopAll();
                REQUIRE(waitUntil([&] { return !run.running(); }));
            }
            CHECK(document.problems()->problemsOf("live recording").empty());
            // What is recorded is partly in the log only: that stays said after Stop.
            REQUIRE(QFileInfo(log).size() > 0);
            REQUIRE(atRisk().size() == 1);
            CHECK(atRisk().front().node == recorder.toStdString());
            CHECK_THAT(atRisk().front().message, Catch::Contains(log.toStdString() + "' beside") && Catch::Contains("PRAGMA wal_checkpoint"));
            CHECK(document.problems()->errorCount() >= 1);  // the status bar counts it
            if (dismissed) {
                run.dismissDataAtRisk(recorder);
                CHECK(atRisk().empty());
                CHECK(QFileInfo(log).size() > 0);  // the user's word, not the file's: the log is still there
            } else {
                // With room on the disk again, the next connection to close folds the log and removes it.
                { ArchiveStore folded(archive.toStdString(), ArchiveAccess::Record); }
                REQUIRE(QFileInfo(log).size() == 0);
                CHECK(waitUntil([&] { return atRisk().empty(); }));
            }
        }
    }
}

TEST_CASE("a recorder node left whole only with its write-ahead log says so after its run, until the log is folded", "[ui][run][archive]") {
    // isochron-run prints this warning (even under --quiet); the editor showed it nowhere.
    QTemporaryDir folder;
    const QString archive = folder.filePath("full.archive.sqlite");
    const QString log = archive + "-wal";
    GraphDocument document;
    document.addNode("generators.signal_generator", 0, 0);  // unpaced: as fast as the disk takes it
    REQUIRE(document.setParameter("signal_generator", "block", 4800).isEmpty());
    const QString recorder = document.addNode("io.archive_sink", 240, 0);
    REQUIRE(document.setParameter(recorder, "path", archive).isEmpty());
    REQUIRE(document.connectPorts("signal_generator", "out", recorder, "in0").isEmpty());
    RunController run;
    run.setDocument(&document);
    const auto atRisk = [&] { return document.problems()->problemsOf("data at risk"); };
    const auto runToTheEnd = [&] {
        REQUIRE(run.start());
        REQUIRE(waitUntil([&] { return !run.running() && run.state() != "starting"; }, 60000));
    };
    // A first run fills the file (30 s of 48 kHz), its log folded in at the end.
    REQUIRE(document.setParameter("signal_generator", "duration", 30).isEmpty());
    REQUIRE(document.setParameter(recorder, "stream", QString("first")).isEmpty());
    runToTheEnd();
    REQUIRE(run.state() == "finished");
    REQUIRE(QFileInfo(log).size() == 0);
    CHECK(atRisk().empty());
    // The second has room for its log but not for the file to take it in.
    REQUIRE(document.setParameter(recorder, "stream", QString("second")).isEmpty());
    {
        const FileSizeLimit full(static_cast<rlim_t>(QFileInfo(archive).size()) + (128 << 10));
        runToTheEnd();
    }
    REQUIRE(QFileInfo(log).size() > 0);
    REQUIRE(atRisk().size() == 1);
    CHECK(atRisk().front().node == recorder.toStdString());
    CHECK_THAT(atRisk().front().message, Catch::StartsWith("data at risk: ") && Catch::Contains(log.toStdString() + "' beside"));
    { ArchiveStore folded(archive.toStdString(), ArchiveAccess::Record); }
    REQUIRE(QFileInfo(log).size() == 0);
    CHECK(waitUntil([&] { return atRisk().empty(); }));
}
