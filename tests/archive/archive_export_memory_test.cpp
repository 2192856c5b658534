// isochron-archive export of a long interval as WAV, FLAC and JSON lines: the process's peak memory
// (its ru_maxrss, read by wait4 for this child alone) stays below a bound smaller than the interval,
// and the file holds every sample of the interval exactly (checked against the samples' formula, read
// back a chunk or a line at a time). Before export streamed, it held the interval about 2.15 times
// over (wav, flac), or one channel's whole interval (jsonl). A child's ru_maxrss also holds the
// spawning process's high-water RSS (exec folds it in), so these cases ([memory]) run in a test
// process of their own (tests/CMakeLists.txt), not after the suite's large cases.
#include <catch2/catch.hpp>

#include <sndfile.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/archive/archive_store.h"
#include "tests/support/test_files.h"

extern char** environ;

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000;
constexpr int kChannels = 2;
constexpr std::int64_t kPiece = 4800;            // 0.1 s, as a recorder of 0.1 s blocks stores them
constexpr std::int64_t kLength = 200 * 48000;    // 200 s: 76.8 MB of f32 over both channels
constexpr double kIntervalBytes = static_cast<double>(kLength) * kChannels * sizeof(float);

/// Sample `index` of `channel`: a hashed 24-bit code over 2^23, so FLAC at 24 bits holds it exactly
/// and no two neighbouring samples or channels are alike.
float sampleAt(int channel, std::int64_t index) {
    std::uint64_t x = static_cast<std::uint64_t>(index) * 2 + static_cast<std::uint64_t>(channel) + 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    const std::int32_t code = static_cast<std::int32_t>(x & 0xFFFFFF) - (1 << 23);
    return static_cast<float>(code) / static_cast<float>(1 << 23);
}

void writeLongArchive(const std::string& path) {
    ArchiveStore store(path, ArchiveAccess::Record);
    const std::int64_t stream = store.openStream({.name = "long", .rateHz = kRate, .channels = kChannels, .node = "rec"});
    std::vector<float> piece(static_cast<std::size_t>(kPiece));
    for (std::int64_t start = 0; start < kLength; start += kPiece) {
        for (int channel = 0; channel < kChannels; ++channel) {
            for (std::int64_t i = 0; i < kPiece; ++i) piece[static_cast<std::size_t>(i)] = sampleAt(channel, start + i);
            store.appendSamples(stream, channel, start, piece);
        }
    }
    store.commit();
}

/// Sample `index` of the one-channel stream the jsonl export reads: a whole number (short as JSON text), exact in f32.
float monoSampleAt(std::int64_t index) { return static_cast<float>((index * 7 + 3) % 2001 - 1000); }
constexpr std::int64_t kMonoLength = 300 * 48000;  // 300 s: 57.6 MB of f32 in one channel

void writeMonoArchive(const std::string& path) {
    ArchiveStore store(path, ArchiveAccess::Record);
    const std::int64_t stream = store.openStream({.name = "mono", .rateHz = kRate, .node = "rec"});
    std::vector<float> piece(static_cast<std::size_t>(kPiece));
    for (std::int64_t start = 0; start < kMonoLength; start += kPiece) {
        for (std::int64_t i = 0; i < kPiece; ++i) piece[static_cast<std::size_t>(i)] = monoSampleAt(start + i);
        store.appendSamples(stream, 0, start, piece);
    }
    store.commit();
}

/// Runs isochron-archive with `arguments` (output to `log`), returning its exit status and its peak
/// resident memory in bytes.
std::pair<int, double> runMeasured(const std::vector<std::string>& arguments, const std::string& log) {
    std::vector<std::string> words{ISOCHRON_ARCHIVE_BINARY};
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t child = 0;
    const int spawned = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(spawned == 0);
    int status = 0;
    rusage usage{};
    REQUIRE(wait4(child, &status, 0, &usage) == child);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, static_cast<double>(usage.ru_maxrss) * 1024};
}

}  // namespace

TEST_CASE("isochron-archive export streams a long interval: memory far below its size, every sample exact", "[archive][cli][memory]") {
    const TempFolder folder;
    const std::string archive = folder.file("long.sqlite");
    writeLongArchive(archive);
    // From 0.0123 s (sample 591, inside the first piece) to 199.9 s: chunks end inside pieces.
    const std::int64_t first = 591, last = 9'595'200;
    for (const std::string format : {"wav", "flac"}) {
        INFO(format);
        const std::string output = folder.file("long." + format), log = folder.file("export.log");
        const auto [status, peakBytes] = runMeasured({"export", archive, "long", "--from", "0.0123", "--to", "199.9", "--format", format, "--output", output}, log);
        INFO(readText(log));
        REQUIRE(status == 0);
        INFO("peak resident memory " << peakBytes / 1e6 << " MB for an interval of " << kIntervalBytes / 1e6 << " MB");
        // SQLite's page cache (cache_size: 32 MiB at most) plus the program and a chunk (4 MiB at most):
        // 43 MB measured; holding the interval took about 200 MB. Under AddressSanitizer the resident
        // size holds its shadow memory and the quarantine of freed blocks (about 500 MB here), so the
        // bound is checked only in builds without it; the samples are checked in every build.
#ifndef __SANITIZE_ADDRESS__
        CHECK(peakBytes < 64e6);
#endif
        SF_INFO info{};
        SNDFILE* file = sf_open(output.c_str(), SFM_READ, &info);
        REQUIRE(file != nullptr);
        CHECK(info.samplerate == 48000);
        REQUIRE(info.channels == kChannels);
        REQUIRE(info.frames == last - first);
        std::vector<float> frames(65536 * kChannels);
        std::int64_t mismatches = 0;
        for (std::int64_t frame = 0; frame < info.frames;) {
            const sf_count_t read = sf_readf_float(file, frames.data(), 65536);
            REQUIRE(read > 0);
            for (sf_count_t f = 0; f < read; ++f) {
                for (int c = 0; c < kChannels; ++c) mismatches += frames[static_cast<std::size_t>(f * kChannels + c)] != sampleAt(c, first + frame + f);
            }
            frame += read;
        }
        sf_close(file);
        CHECK(mismatches == 0);
    }
}

TEST_CASE("isochron-archive export --format jsonl streams a long interval of a signal: memory far below one channel's interval, every sample exact",
          "[archive][cli][memory]") {
    // It read one channel's whole interval before writing its lines: 300 s of one channel took the
    // interval's 57.6 MB beside SQLite's page cache.
    const TempFolder folder;
    const std::string archive = folder.file("mono.sqlite");
    writeMonoArchive(archive);
    const std::int64_t first = 591, last = 14'395'200;  // 0.0123 s to 299.9 s: chunks end inside pieces
    const std::string output = folder.file("mono.jsonl"), log = folder.file("export.log");
    const auto [status, peakBytes] = runMeasured({"export", archive, "mono", "--from", "0.0123", "--to", "299.9", "--format", "jsonl", "--output", output}, log);
    INFO(readText(log));
    REQUIRE(status == 0);
    INFO("peak resident memory " << peakBytes / 1e6 << " MB for an interval of " << static_cast<double>(last - first) * 4 / 1e6 << " MB");
#ifndef __SANITIZE_ADDRESS__
    CHECK(peakBytes < 64e6);  // as for wav and flac (see above)
#endif
    std::ifstream lines(output);
    std::int64_t next = first, mismatches = 0;
    for (std::string text; std::getline(lines, text);) {
        const nlohmann::json line = nlohmann::json::parse(text);
        REQUIRE(line["channel"] == 0);
        REQUIRE(line["gap"] == false);
        REQUIRE(line["start"] == next);
        const std::vector<float> samples = line["samples"].get<std::vector<float>>();
        REQUIRE(line["length"] == static_cast<std::int64_t>(samples.size()));
        for (std::size_t i = 0; i < samples.size(); ++i) mismatches += samples[i] != monoSampleAt(next + static_cast<std::int64_t>(i));
        next += static_cast<std::int64_t>(samples.size());
    }
    CHECK(next == last);
    CHECK(mismatches == 0);
}

namespace {

constexpr std::int64_t kEventCount = 240'000;  // about 450 bytes of JSON each: 108 MB of item text
constexpr std::int64_t kEventsPerStart = 3;    // three items share each start: pages (1 024 items) end between them
constexpr std::int64_t kEventSpacing = 480;    // samples between two starts: 10 ms

/// The JSON text of event `index`: its index and a filler that differs from one event to the next.
std::string eventJson(std::int64_t index) {
    std::string filler;
    for (int part = 0; part < 40; ++part) filler += std::to_string((index * 2654435761LL + part * 97) % 1000000007LL) + ",";
    return nlohmann::json{{"index", index}, {"filler", filler}}.dump();
}

std::int64_t eventStart(std::int64_t index) { return index / kEventsPerStart * kEventSpacing; }

void writeEventArchive(const std::string& path) {
    ArchiveStore store(path, ArchiveAccess::Record);
    const std::int64_t stream = store.openStream({.name = "events", .kind = ArchivedStreamInfo::Kind::Items, .rateHz = kRate, .node = "rec"});
    for (std::int64_t index = 0; index < kEventCount; ++index) store.appendItem(stream, eventStart(index), 1, eventJson(index));
    store.commit();
}

}  // namespace

TEST_CASE("isochron-archive export --format jsonl streams a long interval of events: memory far below the items' text, every item once, in order",
          "[archive][cli][memory]") {
    // It read every item of the interval (108 MB of JSON text here) before writing its first line.
    const TempFolder folder;
    const std::string archive = folder.file("events.sqlite");
    writeEventArchive(archive);
    // From the sixth start (0.05 s) to the last start (799.99 s), which the interval leaves out.
    const std::int64_t firstIndex = 3 * 5, lastStart = eventStart(kEventCount - 1);
    const std::string from = std::to_string(static_cast<double>(eventStart(firstIndex)) / kRate);
    const std::string to = std::to_string(static_cast<double>(lastStart) / kRate);
    const std::string output = folder.file("events.jsonl"), log = folder.file("export.log");
    const auto [status, peakBytes] = runMeasured({"export", archive, "events", "--from", from, "--to", to, "--format", "jsonl", "--output", output}, log);
    INFO(readText(log));
    REQUIRE(status == 0);
    INFO("peak resident memory " << peakBytes / 1e6 << " MB for " << kEventCount << " items");
#ifndef __SANITIZE_ADDRESS__
    CHECK(peakBytes < 64e6);  // as for wav and flac (see above)
#endif
    std::ifstream lines(output);
    std::int64_t next = firstIndex, mismatches = 0;
    for (std::string text; std::getline(lines, text); ++next) {
        const nlohmann::json line = nlohmann::json::parse(text);
        mismatches += line["start"] != eventStart(next) || line["length"] != 1 || line["item"].dump() != eventJson(next);
    }
    CHECK(next == kEventCount - kEventsPerStart);  // every item starting before the last start
    CHECK(mismatches == 0);
}
