// The stream archive's write path (issue 13): how fast ArchiveStore stores 8 channels of 48 kHz f32
// on this disk, and what io.archive_sink's engine thread pays per segment when an ArchiveWriter does
// the disk work. 60 s of noise in 0.1 s segments go into a scratch archive under the system temp
// folder (ISOCHRON_ARCHIVE_BENCH_DIR to measure another disk), deleted afterwards. Compare the MB/s
// with `dd` on the same disk (scripts/archive_bench.sh does both).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <unistd.h>
#include <vector>

#include "app/bench/benchmark.h"
#include "engine/archive/archive_store.h"
#include "engine/archive/archive_writer.h"

namespace isochron::bench {
namespace {

constexpr int kChannels = 8;
constexpr double kRate = 48000;
constexpr std::int64_t kBlock = 4800;
constexpr int kSeconds = 60;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::filesystem::path scratchFile(const std::string& name) {
    const char* folder = std::getenv("ISOCHRON_ARCHIVE_BENCH_DIR");
    const std::filesystem::path base = folder ? std::filesystem::path(folder) : std::filesystem::temp_directory_path();
    return base / ("isochron-archive-bench-" + std::to_string(getpid()) + "-" + name + ".sqlite");
}

void removeArchive(const std::filesystem::path& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}

/// One second of noise per channel, cut into kBlock-sample segments, reused for every second.
std::vector<std::vector<float>> noiseSecond() {
    std::mt19937 random(1);
    std::normal_distribution<float> noise(0.0f, 0.1f);
    std::vector<std::vector<float>> channels(kChannels, std::vector<float>(static_cast<std::size_t>(kRate)));
    for (auto& channel : channels) std::generate(channel.begin(), channel.end(), [&] { return noise(random); });
    return channels;
}

ArchivedStreamInfo streamInfo() { return {.name = "array", .rateHz = kRate, .channels = kChannels, .node = "bench"}; }

double fileBytes(const std::filesystem::path& path) {
    double bytes = 0;
    for (const char* suffix : {"", "-wal"}) {
        if (std::filesystem::exists(path.string() + suffix)) bytes += static_cast<double>(std::filesystem::file_size(path.string() + suffix));
    }
    return bytes;
}

void archiveWrite(const BenchContext&, const Report& report) {
    const std::vector<std::vector<float>> second = noiseSecond();
    const double samples = static_cast<double>(kSeconds) * kRate * kChannels;
    {  // ArchiveStore alone on this thread: inserts, a commit every 0.5 s of data, WAL checkpoints.
        const std::filesystem::path path = scratchFile("store");
        const auto start = Clock::now();
        {
            ArchiveStore store(path.string(), ArchiveAccess::Record);
            const std::int64_t id = store.openStream(streamInfo());
            for (std::int64_t block = 0; block < kSeconds * static_cast<std::int64_t>(kRate) / kBlock; ++block) {
                const std::size_t offset = static_cast<std::size_t>((block * kBlock) % static_cast<std::int64_t>(kRate));
                for (int c = 0; c < kChannels; ++c) store.appendSamples(id, c, block * kBlock, std::span(second[c]).subspan(offset, kBlock));
                if ((block + 1) % 5 == 0) store.commit();
            }
            store.commit();
        }
        const double wall = secondsSince(start);
        const double bytes = fileBytes(path);
        removeArchive(path);
        report({{"benchmark", "archive-write"},
                {"scheduler", "-"},
                {"path", "ArchiveStore"},
                {"samples_per_s", samples / wall},
                {"mb_per_s", bytes / wall / 1e6},
                {"bytes_per_sample", bytes / samples}});
    }
    {  // Through an ArchiveWriter: what the engine thread pays per segment, and the rate until all is committed.
        const std::filesystem::path path = scratchFile("writer");
        std::vector<double> pushMicroseconds;
        const auto start = Clock::now();
        double wall = 0;
        bool kept = true;
        {
            ArchiveWriter::Options options;
            options.queueBytes = std::size_t{1} << 30;  // measure the disk, not the queue's limit
            options.liveSamples = 10 * static_cast<std::int64_t>(kRate);  // io.archive_sink's default live window (live_s 10)
            ArchiveWriter writer(std::make_unique<ArchiveStore>(path.string(), ArchiveAccess::Record), streamInfo(), options);
            const Timebase* timebase = &Timebase::get(kRate);
            for (std::int64_t block = 0; block < kSeconds * static_cast<std::int64_t>(kRate) / kBlock; ++block) {
                const std::size_t offset = static_cast<std::size_t>((block * kBlock) % static_cast<std::int64_t>(kRate));
                for (int c = 0; c < kChannels; ++c) {
                    SigSeg<float> segment = SigSeg<float>::allocate(kBlock, block * kBlock, timebase);
                    std::copy_n(second[c].begin() + static_cast<std::ptrdiff_t>(offset), kBlock, segment.writable().begin());
                    const auto pushed = Clock::now();
                    kept = writer.pushSamples(c, block * kBlock, std::move(segment)) && kept;
                    pushMicroseconds.push_back(secondsSince(pushed) * 1e6);
                }
            }
            writer.flush();
            wall = secondsSince(start);
        }
        const double bytes = fileBytes(path);
        removeArchive(path);
        std::sort(pushMicroseconds.begin(), pushMicroseconds.end());
        const auto at = [&](double q) { return pushMicroseconds[static_cast<std::size_t>(q * static_cast<double>(pushMicroseconds.size() - 1))]; };
        report({{"benchmark", "archive-write"},
                {"scheduler", "-"},
                {"path", "ArchiveWriter"},
                {"samples_per_s", samples / wall},
                {"mb_per_s", bytes / wall / 1e6},
                {"all_recorded", kept},
                {"push_us_p50", at(0.5)},
                {"push_us_p99", at(0.99)},
                {"push_us_max", pushMicroseconds.back()}});
    }
}

}  // namespace

std::vector<Benchmark> archiveBenchmarks() {
    return {{"archive-write", "8 ch x 48 kHz f32 into a stream archive: ArchiveStore's rate, and an ArchiveWriter's cost per segment on the engine thread",
             archiveWrite, false}};
}

}  // namespace isochron::bench
