// The Archive tab's page check (ArchivePageCheck): the model's destructor and open() of another file
// end it where it is. Closing the editor during the check of a large file waited for its end.
#include <catch2/catch.hpp>

#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/archive/archive_store.h"
#include "tests/support/sound_archive.h"
#include "tests/support/test_files.h"
#include "ui/archive/archive_page_check.h"

using namespace isochron;
using namespace isochron::ui;

TEST_CASE("a page check destroyed while it runs ends interrupted, before the end of the file", "[ui][archive]") {
    const test::TempFolder folder;
    const std::string path = folder.file("long.sqlite");
    test::writeSoundArchive(path, 16 * 1024 * 1024);  // 64 MiB of pages to read
    std::optional<ArchivePageCheck::Result> ended;
    {
        // Destroyed at once: the check is opening the file or reading its pages.
        const ArchivePageCheck check(path, [&](const ArchivePageCheck::Result& result) { ended = result; });
    }
    REQUIRE(ended);  // the destructor waited for the report
    CHECK(ended->outcome == ArchivePageCheck::Result::Outcome::Interrupted);
}

TEST_CASE("a page check left to run reads every page of a sound file and says so", "[ui][archive]") {
    const test::TempFolder folder;
    const std::string path = folder.file("short.sqlite");
    test::writeSoundArchive(path, 4 * 65536);
    std::atomic<bool> reported = false;
    std::optional<ArchivePageCheck::Result> ended;
    ArchivePageCheck check(path, [&](const ArchivePageCheck::Result& result) {
        ended = result;
        reported = true;
    });
    while (!reported) std::this_thread::yield();
    REQUIRE(ended);
    CHECK(ended->outcome == ArchivePageCheck::Result::Outcome::Sound);
    CHECK(ended->damage.empty());
}
