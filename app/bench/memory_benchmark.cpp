// XStream Fig. 6: buffering with copy-always segments versus RefCount-Lazy SigSegs, as the batch a
// sync operator accumulates grows. Four channels receive 256-sample chunks; once a channel has
// buffered `batch` samples, the middle half is extracted and read (as sync emits a detection), and
// the buffer is dropped.
#include <chrono>
#include <cstring>
#include <vector>

#include "app/bench/benchmark.h"
#include "engine/signal/sigseg.h"
#include "app/bench/input_audio.h"

namespace isochron::bench {
namespace {

constexpr int kChannels = 4;
constexpr std::size_t kChunk = 256;

// Copy-always: every append makes a new buffer holding both parts; extraction copies too.
struct CopyAlways {
    std::vector<float> buffer;
    void append(const float* chunk, std::size_t n) {
        std::vector<float> joined(buffer.size() + n);
        std::memcpy(joined.data(), buffer.data(), buffer.size() * sizeof(float));
        std::memcpy(joined.data() + buffer.size(), chunk, n * sizeof(float));
        buffer = std::move(joined);
    }
    std::size_t size() const { return buffer.size(); }
    double extractAndRead(std::size_t start, std::size_t length) {
        std::vector<float> range(buffer.begin() + static_cast<std::ptrdiff_t>(start),
                                 buffer.begin() + static_cast<std::ptrdiff_t>(start + length));
        double sum = 0;
        for (float v : range) sum += v;
        buffer.clear();
        return sum;
    }
};

// RefCount-Lazy: chunks are pooled SigSegs; append splices piece lists, extraction is a view.
struct RefCountLazy {
    SigSeg<float> buffer;
    std::int64_t next = 0;
    void append(const float* chunk, std::size_t n) {
        buffer.append(SigSeg<float>::copyOf(std::span<const float>(chunk, n), next, &Timebase::get(48000)));
        next += static_cast<std::int64_t>(n);
    }
    std::size_t size() const { return static_cast<std::size_t>(buffer.length()); }
    double extractAndRead(std::size_t start, std::size_t length) {
        SigSeg<float> range = buffer.subseg(buffer.startIndex() + static_cast<std::int64_t>(start), static_cast<std::int64_t>(length));
        double sum = 0;
        range.forEachSpan([&](std::span<const float> run) {
            for (float v : run) sum += v;
        });
        buffer = SigSeg<float>();
        return sum;
    }
};

template <class Strategy>
double measure(const std::vector<float>& input, std::size_t batch, double seconds) {
    std::vector<Strategy> channels(kChannels);
    std::size_t position = 0;
    std::uint64_t samples = 0;
    double checksum = 0;
    auto start = std::chrono::steady_clock::now();
    auto deadline = start + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        for (int round = 0; round < 64; ++round) {
            if (position + kChunk > input.size()) position = 0;
            for (auto& channel : channels) {
                channel.append(input.data() + position, kChunk);
                if (channel.size() >= batch) checksum += channel.extractAndRead(batch / 4, batch / 2);
            }
            position += kChunk;
            samples += kChunk * kChannels;
        }
    }
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (checksum == 12345.678) std::printf(" ");  // keep the reads observable
    return static_cast<double>(samples) / elapsed;
}

}  // namespace

std::vector<Benchmark> memoryBenchmarks() {
    return {{"memory", "copy-always vs RefCount-Lazy buffering in sync, throughput vs batch size (XStream Fig. 6)",
             [](const BenchContext& context, const Report& report) {
                 std::vector<float> input = loadFirstChannel(context.input);
                 for (std::size_t batchKb : {4, 16, 64, 128, 256, 448}) {
                     std::size_t batch = batchKb * 1024 / sizeof(float);
                     double pointSeconds = std::max(0.25, context.seconds / 4);
                     double copy = measure<CopyAlways>(input, batch, pointSeconds);
                     double lazy = measure<RefCountLazy>(input, batch, pointSeconds);
                     report({{"benchmark", "memory"}, {"scheduler", "none"}, {"strategy", "copy-always"},
                             {"batch_kb", batchKb}, {"samples_per_s", copy}});
                     report({{"benchmark", "memory"}, {"scheduler", "none"}, {"strategy", "refcount-lazy"},
                             {"batch_kb", batchKb}, {"samples_per_s", lazy}});
                 }
             }}};
}

}  // namespace isochron::bench
