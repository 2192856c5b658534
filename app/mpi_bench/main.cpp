// isochron-mpi-bench: throughput of one MPI channel between two ranks (distributed/mpi_channels.h)
// beside raw loops of the same bytes: blocking MPI_Send, and MPI_Isend with as many segments in
// flight as the channel has credits (the limit a channel can reach on this transport), as one
// message per segment and as the channel's pair (header, then samples).
//   mpirun -np 2 isochron-mpi-bench [SEGMENTS] [CREDITS]
// Rank 0 sends SEGMENTS segments of 4096 f32 samples (default 200000), rank 1 receives them; rank 1
// prints samples per second for each way, and what encoding and decoding alone reach in one process.
// The channel runs the engine on both ranks: a source that emits one shared segment again and again
// (so the source costs nothing), the sender, and on rank 1 the receiver and a null sink.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "distributed/mpi_channels.h"
#include "distributed/partition_plan.h"
#include "distributed/wire_format.h"
#include "engine/graph/graph_file.h"
#include "engine/runtime/engine.h"
#include "nodes/register_builtin_nodes.h"

using namespace isochron;

namespace {

constexpr std::int64_t kSegmentSamples = 4096;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Emits the same 4096-sample segment `segments` times (the engine shares it: no copy per item).
class RepeatedSegment final : public Operator {
public:
    explicit RepeatedSegment(std::int64_t segments) : remaining_(segments) {}

protected:
    void onActivate() override {
        std::vector<float> samples(kSegmentSamples);
        for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>(i % 97) / 97.0f;
        segment_ = SigSeg<float>::copyOf(samples, 0, &Timebase::get(48000.0));
    }
    SourceStatus onProduce() override {
        for (std::int64_t i = 0; i < productionBudget() && remaining_ > 0 && admissionOpen(); ++i, --remaining_) emit(0, Item::signal(segment_));
        return remaining_ > 0 ? SourceStatus::produced() : SourceStatus::finished();
    }

private:
    std::int64_t remaining_;
    SigSeg<float> segment_;
};

/// One segment's worth of bytes as the channel sends it: its message (header and names) and its samples.
struct SegmentMessage {
    std::vector<std::byte> header;
    std::size_t sampleBytes = 0;
};

SegmentMessage segmentMessage() {
    const Item item = Item::signal(SigSeg<float>::allocate(kSegmentSamples, 0, &Timebase::get(48000.0)));
    SegmentMessage message;
    distributed::encodeItem(item, message.header);
    message.sampleBytes = distributed::sampleBytes(item);
    return message;
}

/// Seconds rank 1 takes to receive `segments` messages of a segment's size (header and samples in one)
/// sent by a plain MPI_Send loop.
double rawSendLoop(int rank, std::int64_t segments) {
    const SegmentMessage segment = segmentMessage();
    std::vector<std::byte> message(segment.header.size() + segment.sampleBytes);
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t i = 0; i < segments; ++i) {
        if (rank == 0) MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        else MPI_Recv(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return secondsSince(start);
}

/// Seconds rank 1 takes to receive `segments` segments with `window` of them in flight (MPI_Isend /
/// MPI_Irecv into `window` buffers): the pipelined limit a channel with as many credits has. `parts`
/// 1: header and samples in one message; 2: as the channel sends them, the header then the samples.
double rawWindowLoop(int rank, std::int64_t segments, int window, int parts) {
    const SegmentMessage segment = segmentMessage();
    const std::vector<int> sizes = parts == 1 ? std::vector<int>{static_cast<int>(segment.header.size() + segment.sampleBytes)}
                                              : std::vector<int>{static_cast<int>(segment.header.size()), static_cast<int>(segment.sampleBytes)};
    std::vector<std::vector<std::byte>> buffers;
    for (int slot = 0; slot < window; ++slot) {
        for (const int size : sizes) buffers.emplace_back(static_cast<std::size_t>(size));
    }
    std::vector<MPI_Request> requests(buffers.size(), MPI_REQUEST_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t i = 0; i < segments; ++i) {
        const auto first = static_cast<std::size_t>(i % window) * sizes.size();
        MPI_Waitall(static_cast<int>(sizes.size()), &requests[first], MPI_STATUSES_IGNORE);
        for (std::size_t part = 0; part < sizes.size(); ++part) {
            std::byte* data = buffers[first + part].data();
            if (rank == 0) MPI_Isend(data, sizes[part], MPI_BYTE, 1, 1, MPI_COMM_WORLD, &requests[first + part]);
            else MPI_Irecv(data, sizes[part], MPI_BYTE, 0, 1, MPI_COMM_WORLD, &requests[first + part]);
        }
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return secondsSince(start);
}

/// Seconds one process takes to encode and decode `segments` segments' messages, the receiver's
/// pooled segment included (the channel's own work per segment, without the transport).
double encodeDecode(std::int64_t segments) {
    const Item item = Item::signal(SigSeg<float>::allocate(kSegmentSamples, 0, &Timebase::get(48000.0)));
    std::vector<std::byte> message;
    const auto start = std::chrono::steady_clock::now();
    std::int64_t samples = 0;
    for (std::int64_t i = 0; i < segments; ++i) {
        distributed::encodeItem(item, message);
        samples += distributed::decodeMessage(message).item.sampleCount();
    }
    const double seconds = secondsSince(start);
    if (samples != segments * kSegmentSamples) std::abort();
    return seconds;
}

/// Seconds rank 1's engine takes to receive `segments` segments through an MPI channel.
double channelRun(int rank, std::int64_t segments, int credits) {
    OperatorRegistry registry;
    registerBuiltinNodes(registry);
    OperatorDescriptor repeat;
    repeat.typeName = "bench.repeated_segment";
    repeat.category = "bench";
    repeat.summary = "One shared 4096-sample segment, again and again";
    repeat.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), ""}};
    repeat.create = [segments] { return std::make_unique<RepeatedSegment>(segments); };
    registry.add(std::move(repeat));
    const GraphSpec file = parseGraph(R"({"format": "isochron-graph/1", "nodes": [
        {"id": "source", "type": "bench.repeated_segment", "partition": 0},
        {"id": "sink", "type": "io.null_sink", "partition": 1}], "edges": [{"from": "source.out", "to": "sink.in"}]})");
    const ValidatedGraph graph = validateGraph(file, registry);
    distributed::MpiChannels channels(credits);
    const distributed::LocalPart part = distributed::localPart(
        graph, distributed::nodePartitions(file, graph), rank, [&](const distributed::ChannelSpec& c) { return channels.sender(c); },
        [&](const distributed::ChannelSpec& c) { return channels.receiver(c); });
    Engine engine(part.graph, SchedulerSpec{});
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    const RunOutcome outcome = engine.run();
    const double seconds = secondsSince(start);
    if (!outcome.failures.empty()) {
        std::fprintf(stderr, "rank %d: %s\n", rank, outcome.failures.front().c_str());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return seconds;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (ranks != 2) {
        if (rank == 0) std::fprintf(stderr, "isochron-mpi-bench: start it on two ranks: mpirun -np 2 isochron-mpi-bench [SEGMENTS] [CREDITS]\n");
        MPI_Finalize();
        return 1;
    }
    const std::int64_t segments = argc > 1 ? std::atoll(argv[1]) : 200'000;
    const int credits = argc > 2 ? std::atoi(argv[2]) : 8;
    const double samples = static_cast<double>(segments * kSegmentSamples);
    const double raw = rawSendLoop(rank, segments);
    const double window = rawWindowLoop(rank, segments, credits, 1);
    const double windowPairs = rawWindowLoop(rank, segments, credits, 2);
    const double channel = channelRun(rank, segments, credits);
    if (rank == 1) {
        const double copies = encodeDecode(segments);
        std::printf("%lld segments of %lld f32 samples, rank 0 -> rank 1\n", static_cast<long long>(segments), static_cast<long long>(kSegmentSamples));
        std::printf("raw MPI_Send loop:          %6.2f G samples/s  (%.2f GB/s)\n", samples / raw / 1e9, samples * 4 / raw / 1e9);
        std::printf("raw MPI_Isend, %4d window: %6.2f G samples/s  (%.2f GB/s)\n", credits, samples / window / 1e9, samples * 4 / window / 1e9);
        std::printf("raw MPI_Isend pairs, %4d:   %6.2f G samples/s  (%.2f GB/s; header, then samples: as the channel sends)\n", credits,
                    samples / windowPairs / 1e9, samples * 4 / windowPairs / 1e9);
        std::printf("channel, %4d credits:      %6.2f G samples/s  (%.2f GB/s, %.0f%% of the windowed loop)\n", credits, samples / channel / 1e9,
                    samples * 4 / channel / 1e9, 100.0 * window / channel);
        std::printf("encode + decode, no MPI:    %6.2f G samples/s  (the channel's own work per segment, one process)\n", samples / copies / 1e9);
    }
    MPI_Finalize();
    return 0;
}
