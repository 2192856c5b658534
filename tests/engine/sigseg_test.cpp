#include <catch2/catch.hpp>

#include <numeric>
#include <random>

#include "engine/memory/memory_pool.h"
#include "engine/signal/sigseg.h"

using namespace isochron;

namespace {

const Timebase& tb() { return Timebase::get(48000); }

std::vector<float> ramp(std::size_t n, float start = 0) {
    std::vector<float> v(n);
    std::iota(v.begin(), v.end(), start);
    return v;
}

std::vector<float> viaIterator(const SigSeg<float>& s) { return {s.begin(), s.end()}; }

std::vector<float> viaSpans(const SigSeg<float>& s) {
    std::vector<float> out;
    s.forEachSpan([&](std::span<const float> run) { out.insert(out.end(), run.begin(), run.end()); });
    return out;
}

std::vector<float> viaMaterialize(const SigSeg<float>& s) {
    auto span = s.materialize();
    return {span.begin(), span.end()};
}

// Split [0, n) at random points into segments of one source block, then append them back.
SigSeg<float> splitAndRejoin(const SigSeg<float>& whole, std::mt19937& rng, int pieces) {
    std::vector<std::int64_t> cuts;
    std::uniform_int_distribution<std::int64_t> pick(whole.startIndex(), whole.endIndex());
    for (int i = 0; i < pieces - 1; ++i) cuts.push_back(pick(rng));
    cuts.push_back(whole.startIndex());
    cuts.push_back(whole.endIndex());
    std::sort(cuts.begin(), cuts.end());
    SigSeg<float> joined;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) joined.append(whole.subseg(cuts[i], cuts[i + 1] - cuts[i]));
    return joined;
}

}  // namespace

TEST_CASE("subseg and append share storage and never copy", "[sigseg]") {
    SigSeg<float> whole = SigSeg<float>::copyOf(ramp(100), 1000, &tb());
    const float* base = whole.materialize().data();
    SigSeg<float> middle = whole.subseg(1010, 30);
    CHECK(middle.startIndex() == 1010);
    CHECK(middle.length() == 30);
    CHECK(middle.materialize().data() == base + 10);  // a view, not a copy
    CHECK(middle.at(0) == 10.0f);

    // Re-joining adjacent slices of one block merges back into a single piece: still no copy.
    SigSeg<float> left = whole.subseg(1000, 40);
    SigSeg<float> right = whole.subseg(1040, 60);
    SigSeg<float> joined = SigSeg<float>::concat(left, right);
    CHECK(joined.pieceCount() == 1);
    CHECK(joined.materialize().data() == base);
    CHECK(viaIterator(joined) == ramp(100));
}

TEST_CASE("appending the next view of the same list extends the view: no new list, the list unchanged", "[sigseg]") {
    SigSeg<float> whole = SigSeg<float>::copyOf(ramp(100), 1000, &tb());
    SigSeg<float> left = whole.subseg(1010, 30);
    const SigSeg<float> right = whole.subseg(1040, 25);
    left.append(right);
    CHECK(left.list() == whole.list());
    CHECK(whole.list()->pieceCount() == 1);
    CHECK(whole.list()->totalLength() == 100);
    CHECK(left.startIndex() == 1010);
    CHECK(viaIterator(left) == ramp(55, 10));
    CHECK(viaIterator(whole) == ramp(100));  // the other views see what they saw
    // Not adjacent in the list (the same samples would come from elsewhere): refused as before.
    SigSeg<float> start = whole.subseg(1000, 10);
    CHECK_THROWS_AS(start.append(whole.subseg(1050, 10)), std::invalid_argument);
}

TEST_CASE("appending segments from different blocks keeps pieces and reads them in order", "[sigseg]") {
    SigSeg<float> a = SigSeg<float>::copyOf(ramp(10, 0), 0, &tb());
    SigSeg<float> b = SigSeg<float>::copyOf(ramp(5, 10), 10, &tb());
    SigSeg<float> c = SigSeg<float>::copyOf(ramp(7, 15), 15, &tb());
    SigSeg<float> all = SigSeg<float>::concat(SigSeg<float>::concat(a, b), c);
    CHECK(all.length() == 22);
    CHECK(all.pieceCount() == 3);
    CHECK(viaIterator(all) == ramp(22));
    CHECK(viaSpans(all) == ramp(22));
    CHECK(viaMaterialize(all) == ramp(22));
    // The originals are untouched (value semantics).
    CHECK(viaIterator(a) == ramp(10));
    CHECK(a.length() == 10);
}

TEST_CASE("subseg, append, iteration and materialize agree over random splits", "[sigseg]") {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        std::size_t n = 1 + rng() % 3000;
        // Build the stream from several blocks so views cross piece boundaries.
        SigSeg<float> stream;
        std::int64_t index = 5000;
        std::vector<float> expected;
        while (expected.size() < n) {
            std::size_t len = std::min<std::size_t>(1 + rng() % 500, n - expected.size());
            auto values = ramp(len, static_cast<float>(expected.size()));
            stream.append(SigSeg<float>::copyOf(values, index, &tb()));
            expected.insert(expected.end(), values.begin(), values.end());
            index += static_cast<std::int64_t>(len);
        }
        SigSeg<float> rejoined = splitAndRejoin(stream, rng, 1 + static_cast<int>(rng() % 8));
        REQUIRE(rejoined.length() == static_cast<std::int64_t>(n));
        CHECK(viaIterator(rejoined) == expected);
        CHECK(viaSpans(rejoined) == expected);
        CHECK(viaMaterialize(rejoined) == expected);
        // A random window of it.
        std::int64_t start = 5000 + static_cast<std::int64_t>(rng() % n);
        std::int64_t len = static_cast<std::int64_t>(rng() % (n - static_cast<std::size_t>(start - 5000) + 1));
        SigSeg<float> window = rejoined.subseg(start, len);
        std::vector<float> want(expected.begin() + (start - 5000), expected.begin() + (start - 5000) + len);
        CHECK(viaIterator(window) == want);
        CHECK(viaMaterialize(window) == want);
        CHECK(viaSpans(window) == want);
    }
}

TEST_CASE("materialize of several pieces is computed once and cached", "[sigseg]") {
    SigSeg<float> a = SigSeg<float>::copyOf(ramp(8), 0, &tb());
    SigSeg<float> b = SigSeg<float>::copyOf(ramp(8, 8), 8, &tb());
    SigSeg<float> ab = SigSeg<float>::concat(a, b);
    const float* first = ab.materialize().data();
    SigSeg<float> copy = ab;
    CHECK(copy.materialize().data() == first);
    CHECK(ab.subseg(4, 8).materialize().data() == first + 4);
}

TEST_CASE("gaps and foreign timebases are refused, never stitched", "[sigseg]") {
    SigSeg<float> a = SigSeg<float>::copyOf(ramp(10), 0, &tb());
    SigSeg<float> later = SigSeg<float>::copyOf(ramp(10), 12, &tb());
    SigSeg<float> otherClock = SigSeg<float>::copyOf(ramp(10), 10, &Timebase::get(44100));
    CHECK_THROWS_AS(SigSeg<float>::concat(a, later), std::invalid_argument);
    CHECK_THROWS_WITH(SigSeg<float>::concat(a, later), Catch::Contains("not adjacent"));
    CHECK_THROWS_AS(SigSeg<float>::concat(a, otherClock), std::invalid_argument);
    CHECK_THROWS_AS(a.subseg(5, 10), std::out_of_range);
    CHECK_THROWS_AS(a.subseg(-1, 2), std::out_of_range);
}

TEST_CASE("writable() copies only when storage is shared", "[sigseg]") {
    SigSeg<float> a = SigSeg<float>::copyOf(ramp(16), 0, &tb());
    const float* original = a.materialize().data();
    CHECK(a.writable().data() == original);  // sole owner: in place

    SigSeg<float> shared = a;
    auto span = shared.writable();
    CHECK(span.data() != original);  // copy on write
    span[0] = 99.0f;
    CHECK(shared.at(0) == 99.0f);
    CHECK(a.at(0) == 0.0f);

    SigSeg<float> view = a.subseg(4, 4);
    view.writable()[0] = -1.0f;
    CHECK(a.at(4) == 4.0f);
    CHECK(view.at(0) == -1.0f);
}

TEST_CASE("every sample type works, including complex", "[sigseg]") {
    std::vector<std::complex<float>> z = {{1, 2}, {3, 4}, {5, 6}};
    auto c = SigSeg<std::complex<float>>::copyOf(z, 0, &tb());
    CHECK(c.sampleType() == SampleType::ComplexFloat32);
    CHECK(c.at(1) == std::complex<float>(3, 4));
    std::vector<std::int16_t> s = {1, -2, 3};
    auto i16 = SigSeg<std::int16_t>::copyOf(s, 0, &tb());
    auto tail = i16.subseg(1, 2);
    CHECK(std::vector<std::int16_t>(tail.begin(), tail.end()) == std::vector<std::int16_t>{-2, 3});
    std::vector<double> d = {0.5, 0.25};
    auto f64 = SigSeg<double>::copyOf(d, 7, &tb());
    CHECK(f64.endIndex() == 9);
    CHECK(f64.startTime() == tb().timeOf(7));
    CHECK_THROWS_AS(SigSeg<float>::fromHandle(f64), std::invalid_argument);
}

TEST_CASE("reference counts return to zero: all storage goes back to the pool", "[sigseg][memory]") {
    const std::uint64_t before = MemoryPool::instance().stats().liveAllocations;
    {
        std::mt19937 rng(3);
        SigSeg<float> stream;
        for (int i = 0; i < 50; ++i) stream.append(SigSeg<float>::copyOf(ramp(64), 64 * i, &tb()));
        std::vector<SigSeg<float>> views;
        for (int i = 0; i < 100; ++i) {
            std::int64_t start = static_cast<std::int64_t>(rng() % 3000);
            views.push_back(stream.subseg(start, 100));
            views.back().materialize();
        }
        SigSeg<float> copy = views[3];
        copy.writable()[0] = 1;
        CHECK(MemoryPool::instance().stats().liveAllocations > before);
    }
    CHECK(MemoryPool::instance().stats().liveAllocations == before);
}

TEST_CASE("storage identity names the samples: new for new storage and for writes in place", "[sigseg]") {
    SigSeg<float> a = SigSeg<float>::copyOf(ramp(8), 0, &tb());
    SigSeg<float> b = SigSeg<float>::copyOf(ramp(8), 0, &tb());
    const std::uint64_t first = a.storageIdentity();
    CHECK(first != 0);
    CHECK(b.storageIdentity() != first);
    CHECK(a.subseg(2, 3).storageIdentity() == first);  // views share it
    a.writable()[0] = 5.0f;                              // sole owner: written in place
    CHECK(a.storageIdentity() != first);
    CHECK(SigSeg<float>().storageIdentity() == 0);
}
