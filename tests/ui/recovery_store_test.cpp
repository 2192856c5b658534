// Crash recovery: an edited graph is written to the recovery folder, a save or a deliberate
// discard removes it, and the files of an editor that died (its lock stale) are offered back and
// restore the graph, unsaved, under its own file name with its relative paths intact.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>

#include "ui/files/recovery_store.h"
#include "ui/model/graph_document.h"

using namespace isochron::ui;

namespace {

/// A recovery folder of its own for each test.
struct RecoveryFolder {
    RecoveryFolder() { qputenv("ISOCHRON_RECOVERY_DIR", dir.path().toUtf8()); }
    ~RecoveryFolder() { qunsetenv("ISOCHRON_RECOVERY_DIR"); }
    QStringList files() const { return QDir(dir.path()).entryList(QDir::Files, QDir::Name); }
    QTemporaryDir dir;
};

/// The pid of a process that has ended.
qint64 deadPid() {
    QProcess process;
    process.start("true", {});
    REQUIRE(process.waitForStarted());
    const qint64 pid = process.processId();
    REQUIRE(process.waitForFinished());
    REQUIRE(pid > 0);
    return pid;
}

/// Copy store files `id` to `orphan` with a lock a dead process held: what a killed editor leaves.
void leaveAsOrphan(const QString& folder, const QString& id, const QString& orphan, qint64 pid) {
    REQUIRE(QFile::copy(folder + "/" + id + ".isograph.json", folder + "/" + orphan + ".isograph.json"));
    REQUIRE(QFile::copy(folder + "/" + id + ".json", folder + "/" + orphan + ".json"));
    QFile lock(folder + "/" + orphan + ".lock");
    REQUIRE(lock.open(QIODevice::WriteOnly));
    lock.write(QByteArray::number(pid) + "\n" + QCoreApplication::applicationName().toUtf8() + "\n" + QSysInfo::machineHostName().toUtf8() + "\n");
}

QString idOf(const QStringList& files) {
    for (const QString& f : files) {
        if (f.endsWith(".lock")) return f.chopped(5);
    }
    return {};
}

}  // namespace

TEST_CASE("an edited graph is written for recovery; saving it removes the files", "[ui][recovery]") {
    RecoveryFolder folder;
    QTemporaryDir graphs;
    GraphDocument document;
    RecoveryStore store;
    store.setDocument(&document);
    store.writeNow();
    CHECK(folder.files().isEmpty());  // nothing to keep yet
    document.addNode("generators.signal_generator", 0, 0);
    store.writeNow();
    const QStringList files = folder.files();
    REQUIRE(files.size() == 3);  // graph, note, lock
    const QString id = idOf(files);
    CHECK(files.contains(id + ".isograph.json"));
    CHECK(files.contains(id + ".json"));
    // Another window of this live editor does not offer it.
    RecoveryStore other;
    CHECK(other.orphans().isEmpty());
    REQUIRE(document.saveAs(graphs.filePath("g.isograph.json")));
    CHECK(folder.files().isEmpty());
}

TEST_CASE("a dead editor's graph is offered back and restored, unsaved, under its file name", "[ui][recovery]") {
    RecoveryFolder folder;
    QTemporaryDir graphs;
    // A graph with a relative path next to it, edited after its last save.
    GraphDocument edited;
    edited.addNode("io.wav_file_sink", 0, 0);
    REQUIRE(edited.setParameter("wav_file_sink", "path", "out/take.wav").isEmpty());
    REQUIRE(edited.saveAs(graphs.filePath("mine.isograph.json")));
    edited.addNode("generators.signal_generator", -240, 0);
    const QString input = edited.firstAcceptingInput("signal_generator", "out", "wav_file_sink");
    REQUIRE(edited.connectPorts("signal_generator", "out", "wav_file_sink", input).isEmpty());
    RecoveryStore writer;
    writer.setDocument(&edited);
    writer.writeNow();
    leaveAsOrphan(folder.dir.path(), idOf(folder.files()), "dead-editor", deadPid());

    GraphDocument restored;
    RecoveryStore reader;
    reader.setDocument(&restored);
    const QVariantList orphans = reader.orphans();
    REQUIRE(orphans.size() == 1);  // the writer is alive: only the dead editor's files
    const QVariantMap entry = orphans.front().toMap();
    CHECK(entry["id"] == "dead-editor");
    CHECK(entry["file"] == graphs.filePath("mine.isograph.json"));
    CHECK(entry["nodes"] == 2);
    REQUIRE(reader.restore("dead-editor"));
    CHECK(restored.modified());
    CHECK(restored.filePath() == graphs.filePath("mine.isograph.json"));
    CHECK(restored.nodeCount() == 2);
    CHECK(restored.edges()->rowCount() == 1);
    CHECK(restored.baseDirectory() == graphs.path());
    CHECK(restored.spec().findNode("wav_file_sink")->params.at("path") == "out/take.wav");
    CHECK_FALSE(QFile::exists(folder.dir.filePath("dead-editor.json")));
    CHECK_FALSE(QFile::exists(folder.dir.filePath("dead-editor.lock")));
    // Saving the restored graph writes it where it came from.
    REQUIRE(restored.save());
    CHECK(GraphDocument().open(graphs.filePath("mine.isograph.json")));
    // A recovered graph the user lets go of is gone: a new graph is not modified.
    REQUIRE(reader.restore("dead-editor") == false);
    REQUIRE(edited.restoreRecovery(folder.dir.filePath(idOf(folder.files()) + ".isograph.json"), {}, {}));
    CHECK(edited.modified());
    edited.newGraph();
    CHECK_FALSE(edited.modified());
}

TEST_CASE("discarding an orphan deletes it; closing a window that chose not to save leaves nothing", "[ui][recovery]") {
    RecoveryFolder folder;
    {
        GraphDocument document;
        RecoveryStore store;
        store.setDocument(&document);
        document.addNode("io.null_sink", 0, 0);
        store.writeNow();
        leaveAsOrphan(folder.dir.path(), idOf(folder.files()), "dead", deadPid());
        RecoveryStore other;
        REQUIRE(other.orphans().size() == 1);
        other.discard("dead");
        CHECK(other.orphans().isEmpty());
        document.newGraph();  // "Don't save", then the window closes
    }
    CHECK(folder.files().isEmpty());
}
