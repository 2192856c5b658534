// The plugin file watcher reports a change once the files have settled: never while a binary is
// still being written or is missing, once per change, and also after the file was replaced.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

#include "ui/plugins/plugin_file_watcher.h"

using namespace isochron::ui;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text, bool append = false) {
    std::ofstream(file, append ? std::ios::app : std::ios::trunc) << text;
}

// Run the event loop for `milliseconds`, or until `done`.
bool spin(int milliseconds, const std::function<bool()>& done = [] { return false; }) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

}  // namespace

TEST_CASE("a plugin change is reported once its files have settled", "[ui][plugins][watcher]") {
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    const fs::path binary = fs::path(folder.path().toStdString()) / "x.so";
    const fs::path manifest = fs::path(folder.path().toStdString()) / "x.manifest.json";
    write(binary, "build 1");
    write(manifest, "{}");
    PluginFileWatcher watcher(std::chrono::milliseconds(500));  // wide margins for a busy machine
    QStringList reports;
    QObject::connect(&watcher, &PluginFileWatcher::changed, [&](const QString& file) { reports.append(file); });
    watcher.watch(QString::fromStdString(binary.string()));
    spin(400);
    CHECK(reports.isEmpty());  // what is there when watching starts is not a change

    // Written in two steps, 100 ms apart: one report, after the second.
    write(binary, "build 2, first half");
    spin(100);
    write(binary, ", second half", true);
    spin(150);
    CHECK(reports.isEmpty());
    REQUIRE(spin(3000, [&] { return !reports.isEmpty(); }));
    CHECK(reports == QStringList{QString::fromStdString(binary.string())});
    spin(700);
    CHECK(reports.size() == 1);

    // The manifest replaced by a rename, as a build does.
    write(manifest.string() + ".tmp", R"({"version": 2})");
    fs::rename(manifest.string() + ".tmp", manifest);
    REQUIRE(spin(3000, [&] { return reports.size() == 2; }));

    // Gone for a while: nothing to report until it is back.
    fs::remove(binary);
    spin(800);
    CHECK(reports.size() == 2);
    write(binary, "build 3");
    REQUIRE(spin(3000, [&] { return reports.size() == 3; }));

    // Written in place after the replacement: still watched.
    write(binary, "build 4, longer than build 3");
    REQUIRE(spin(3000, [&] { return reports.size() == 4; }));
    spin(700);
    CHECK(reports.size() == 4);
}
