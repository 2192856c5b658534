// ArchiveStore::damage() names the first problem SQLite's page check reports. The check may return its
// heading and the problems under it in one row ("*** in database main ***\nOn tree page 16 ..."): such
// a row was taken for the heading alone, and a file overwritten inside a page of samples read as sound.
// interrupt() ends a check where it is: the Archive tab's owner closing waited for the check's end.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/archive/archive_store.h"
#include "tests/support/sound_archive.h"
#include "tests/support/test_files.h"

using namespace isochron;
using isochron::test::TempFolder;

TEST_CASE("damage() names a problem the page check reports on the line after its heading", "[archive]") {
    const TempFolder folder;
    const std::string path = folder.file("damaged.sqlite");
    {
        ArchiveStore writer(path, ArchiveAccess::Record);
        const std::int64_t mic = writer.openStream({.name = "mic", .rateHz = 1000});
        std::mt19937 noise(7);
        std::uniform_real_distribution<float> sample(-1.0f, 1.0f);
        std::vector<float> piece(4096);
        for (std::int64_t start = 0; start < 64 * 4096; start += 4096) {
            for (float& s : piece) s = sample(noise);
            writer.appendSamples(mic, 0, start, piece);
        }
        writer.commit();
    }
    CHECK_FALSE(ArchiveStore(path, ArchiveAccess::Read).damage());
    {
        // 20 KB of 0xff from the middle of the file: inside a page of samples, over its cells' headers.
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) / 2));
        const std::string ones(20 * 1024, '\xff');
        file.write(ones.data(), static_cast<std::streamsize>(ones.size()));
        REQUIRE(file.good());
    }
    const std::optional<std::string> damage = ArchiveStore(path, ArchiveAccess::Read).damage();
    REQUIRE(damage);
    CHECK_THAT(*damage, Catch::StartsWith("archive '" + path + "' is damaged (SQLite: On tree page ") && !Catch::Contains("***"));
}

TEST_CASE("interrupt() ends a page check that runs on another thread before the end of the file", "[archive]") {
    const TempFolder folder;
    const std::string path = folder.file("long.sqlite");
    test::writeSoundArchive(path, 16 * 1024 * 1024);  // 64 MiB of pages to read
    ArchiveStore reader(path, ArchiveAccess::Read);
    std::atomic<bool> checking = false;
    std::string ending;
    std::thread check([&] {
        checking = true;
        try {
            ending = reader.damage() ? "found damage" : "read every page: sound";
        } catch (const ArchiveInterruptedError& error) {
            ending = error.what();
        }
    });
    while (!checking) std::this_thread::yield();
    reader.interrupt();
    check.join();
    CHECK(ending == "reading every page of '" + path + "' for damage was interrupted before its end");
}

TEST_CASE("interrupt() before a page check starts ends it at once; a store not interrupted checks to the end", "[archive]") {
    // SQLite forgets an interrupt that finds no statement running: the check must not.
    const TempFolder folder;
    const std::string path = folder.file("short.sqlite");
    test::writeSoundArchive(path, 4 * 65536);
    ArchiveStore interrupted(path, ArchiveAccess::Read);
    interrupted.interrupt();
    CHECK_THROWS_AS(interrupted.damage(), ArchiveInterruptedError);
    CHECK_FALSE(ArchiveStore(path, ArchiveAccess::Read).damage());
}
