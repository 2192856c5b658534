// The Archive tab's page check (ArchivePageCheck): the model's destructor and open() of another file
// end it where it is. Closing the editor during the check of a large file waited for its end.
#include <catch2/catch.hpp>

#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/archive/archive_store.h"
#include "tests/support/test_files.h"
#include "ui/archive/archive_page_check.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

/// A sound archive of `samples` samples of one channel (4 bytes each on disk).
void writeSoundArchive(const std::string& path, std::int64_t samples) {
    ArchiveStore writer(path, ArchiveAccess::Record);
    const std::int64_t mic = writer.openStream({.name = "mic", .rateHz = 48000});
    std::vector<float> block(65536);
    for (std::int64_t start = 0; start < samples; start += static_cast<std::int64_t>(block.size())) {
        for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<float>((start + static_cast<std::int64_t>(i)) % 1000) / 1000.0f;
        writer.appendSamples(mic, 0, start, block);
    }
    writer.commit();
}

}  // namespace

TEST_CASE("a page check destroyed while it runs ends interrupted, before the end of the file", "[ui][archive]") {
    const test::TempFolder folder;
    const std::string path = folder.file("long.sqlite");
    writeSoundArchive(path, 16 * 1024 * 1024);  // 64 MiB of pages to read
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
    writeSoundArchive(path, 4 * 65536);
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
