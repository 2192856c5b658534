// The editor's own file dialog model: what typed paths name, default suffixes, and what a folder
// lists (folders first, then the files the filters let through).
#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "ui/files/folder_model.h"
#include "ui/files/typed_path.h"

using namespace isochron::ui;

TEST_CASE("a typed path is absolute as typed, under home with ~, else relative to the folder shown", "[ui][files]") {
    const QString home = QDir::homePath();
    CHECK(resolveTypedPath("/home/me/graphs/mine.isograph.json", "/tmp/x") == "/home/me/graphs/mine.isograph.json");
    CHECK(resolveTypedPath("  /a/b/../c.json ", "/tmp") == "/a/c.json");
    CHECK(resolveTypedPath("~", "/tmp") == home);
    CHECK(resolveTypedPath("~/graphs/g.isograph.json", "/tmp") == home + "/graphs/g.isograph.json");
    CHECK(resolveTypedPath("g.isograph.json", "/tmp/x") == "/tmp/x/g.isograph.json");
    CHECK(resolveTypedPath("../y/g.json", "/tmp/x") == "/tmp/y/g.json");
    CHECK(resolveTypedPath("   ", "/tmp").isEmpty());
}

TEST_CASE("the default suffix is added unless the name has it or an accepted one", "[ui][files]") {
    CHECK(withDefaultSuffix("/a/mine", ".isograph.json") == "/a/mine.isograph.json");
    CHECK(withDefaultSuffix("/a/mine.isograph.json", ".isograph.json") == "/a/mine.isograph.json");
    CHECK(withDefaultSuffix("/a/mine.ISOGRAPH.JSON", ".isograph.json") == "/a/mine.ISOGRAPH.JSON");
    CHECK(withDefaultSuffix("/a/mine.json", ".isograph.json", {".json"}) == "/a/mine.json");
    CHECK(withDefaultSuffix("/a.b/mine", ".csv") == "/a.b/mine.csv");
    CHECK(withDefaultSuffix("/a/mine", "") == "/a/mine");
}

TEST_CASE("a folder lists its folders first, then the matching files, by name", "[ui][files]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    for (const char* name : {"b.isograph.json", "A.isograph.json", "notes.txt", ".hidden.isograph.json"}) {
        QFile file(dir.filePath(name));
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("{}");
    }
    REQUIRE(QDir(dir.path()).mkdir("zeta"));
    REQUIRE(QDir(dir.path()).mkdir("Alpha"));
    FolderModel model;
    model.setNameFilters({"*.isograph.json"});
    model.setFolder(dir.path());
    CHECK(model.error().isEmpty());
    QStringList names;
    for (int row = 0; row < model.rowCount(); ++row) names.append(model.data(model.index(row), FolderModel::NameRole).toString());
    CHECK(names == QStringList{"Alpha", "zeta", "A.isograph.json", "b.isograph.json"});
    CHECK(model.data(model.index(0), FolderModel::IsFolderRole).toBool());
    CHECK(model.data(model.index(2), FolderModel::SizeRole).toLongLong() == 2);
    CHECK(model.withSuffix(model.resolve("new"), ".isograph.json") == dir.filePath("new.isograph.json"));
    CHECK(model.parentFolder() == QFileInfo(dir.path()).absolutePath());

    model.setFolder("zeta");  // relative to the folder shown
    CHECK(model.folder() == dir.filePath("zeta"));
    model.setFolder(dir.filePath("nope"));
    CHECK(model.folder() == dir.filePath("zeta"));
    CHECK(model.error().contains("not a folder"));

    model.setNameFilters({});
    model.setFolder(dir.path());
    CHECK(model.rowCount() == 5);  // every visible file and folder
}

TEST_CASE("saving into a new folder creates every missing folder, but never over a file", "[ui][files]") {
    QTemporaryDir temporary;
    FolderModel model;
    const QString nested = temporary.filePath("graphs/2026/mine");
    CHECK(model.makeFolder(nested).isEmpty());
    CHECK(QFileInfo(nested).isDir());
    CHECK(model.makeFolder(nested).isEmpty());  // already there: nothing to do
    QFile file(temporary.filePath("notes.txt"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.close();
    const QString error = model.makeFolder(temporary.filePath("notes.txt/inside"));
    CHECK(error.contains("is a file"));
    CHECK_FALSE(QFileInfo(temporary.filePath("notes.txt/inside")).exists());
}
