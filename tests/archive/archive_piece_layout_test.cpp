// Size on disk does not depend on the recorder's block size: an ArchiveWriter fed blocks of any length
// (the recorder's: 512, 4 096, 4 800, 8 192, 16 384 samples, or random lengths) stores pieces that fill
// the file's pages (engine/archive/piece_layout.h), so the file takes under 4.4 bytes per f32 sample
// (4 bytes of samples, the rest rows, index and the tables' own pages), and every sample reads back
// exact. Before, a 64 KiB page held three 4 096-sample blocks (5.36 bytes per sample) and one 8 192-sample
// block (8.02).
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "engine/archive/archive_writer.h"
#include "tests/support/test_files.h"

using namespace isochron;
using isochron::test::TempFolder;

namespace {

constexpr double kRate = 48000;
constexpr int kChannels = 4;
constexpr std::int64_t kLength = 30 * 48000;  // 30 s per channel: 5.76 M samples, the tables' own pages ~0.1 byte each

/// Sample `i` of channel `channel`: distinct over the test's length and exact in f32.
float sampleAt(int channel, std::int64_t i) { return static_cast<float>((i * 7 + channel * 4099) % 65536) / 65536.0f - 0.5f; }

/// Records [0, kLength) on every channel in blocks of `block` samples (0: random lengths from 1 to
/// 20 000), as fast as the writer takes them, into a new archive at `path`.
void record(const std::string& path, std::int64_t block) {
    ArchiveWriter::Options options;
    options.waitWhenBehind = [] { return true; };
    ArchiveWriter writer(std::make_unique<ArchiveStore>(path, ArchiveAccess::Record),
                         ArchivedStreamInfo{.name = "array", .rateHz = kRate, .channels = kChannels}, options);
    const Timebase* timebase = &Timebase::get(kRate);
    std::mt19937 random(static_cast<unsigned>(block) + 5);
    std::uniform_int_distribution<std::int64_t> randomLength(1, 20000);
    for (std::int64_t start = 0; start < kLength;) {
        const std::int64_t length = std::min(block > 0 ? block : randomLength(random), kLength - start);
        for (int channel = 0; channel < kChannels; ++channel) {
            SigSeg<float> samples = SigSeg<float>::allocate(length, start, timebase);
            for (std::int64_t i = 0; i < length; ++i) samples.writable()[static_cast<std::size_t>(i)] = sampleAt(channel, start + i);
            REQUIRE(writer.pushSamples(channel, start, std::move(samples)));
        }
        start += length;
    }
    writer.flush();
    REQUIRE_FALSE(writer.problem());
}

}  // namespace

TEST_CASE("An f32 recording takes under 4.4 bytes per sample on disk whatever the recorder's block size, and reads back exact",
          "[archive]") {
    for (const std::int64_t block : {512, 4096, 4800, 8192, 16384, 0}) {
        INFO("block " << (block > 0 ? std::to_string(block) : "random") << " samples");
        TempFolder folder;
        const std::string path = folder.file("layout.sqlite");
        record(path, block);
        // The writer's connection, the last one, checkpointed the WAL into the file and removed it.
        REQUIRE_FALSE(std::filesystem::exists(path + "-wal"));
        const double bytesPerSample = static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(kChannels * kLength);
        CHECK(bytesPerSample < 4.4);

        ArchiveStore reader(path, ArchiveAccess::Read);
        for (int channel = 0; channel < kChannels; ++channel) {
            std::int64_t next = 0;
            for (const ArchivedPiece& piece : reader.get("array", channel, 0, kLength)) {
                REQUIRE_FALSE(piece.isGap());
                REQUIRE(piece.start == next);
                const std::span<const float> samples = piece.samples.materialize();
                for (std::int64_t i = 0; i < piece.length; ++i) REQUIRE(samples[static_cast<std::size_t>(i)] == sampleAt(channel, piece.start + i));
                next = piece.end();
            }
            CHECK(next == kLength);
        }
    }
}
