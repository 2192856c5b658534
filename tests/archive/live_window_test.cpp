// LiveWindow's contract when the writer thread commits data before the recording thread has handed
// it to the window (the order of the two is up to the threads): what a commit stored and let go of
// is not the window's, even if it arrives after that commit. Called in that order directly, so the
// interleaving a loaded machine produces only sometimes happens every time.
#include <catch2/catch.hpp>

#include <vector>

#include "engine/archive/live_window.h"

using namespace isochron;

TEST_CASE("LiveWindow: an item added after the commit that stored it is not held", "[archive][live]") {
    LiveWindow window(1, 0, 0);  // keeps nothing committed
    window.addItem(0, 3, "{\"n\":0}");
    window.addItem(10, 3, "{\"n\":1}");
    const std::vector<std::int64_t> noChannels;
    window.committed(noChannels, 3, 3);  // the writer stored three items; the window has two so far
    window.addItem(20, 3, "{\"n\":2}");  // the third, already stored
    window.addItem(30, 3, "{\"n\":3}");  // not stored yet

    const std::vector<ArchivedItem> held = window.items(0, 100);
    REQUIRE(held.size() == 1);
    CHECK(held[0].json == "{\"n\":3}");
    const LiveItems uncommitted = window.uncommittedItems(0, 100);
    REQUIRE(uncommitted.uncommitted.size() == 1);
    CHECK(uncommitted.uncommitted[0].json == "{\"n\":3}");
    CHECK(uncommitted.storedRowBound == 3);
}

TEST_CASE("LiveWindow: samples added after the commit that stored them are not held", "[archive][live]") {
    const Timebase& timebase = Timebase::get(1000);
    const std::vector<float> block(100, 0.5f);
    LiveWindow window(1, 150, 0);  // keeps the newest 150 samples, committed or not
    window.addSamples(0, SigSeg<float>::copyOf(block, 0, &timebase));
    const std::vector<std::int64_t> ends{300};
    window.committed(ends, 0, 0);  // the writer stored [0, 300); the window has [0, 100) so far
    window.addSamples(0, SigSeg<float>::copyOf(block, 100, &timebase));  // stored, older than the newest 150
    window.addSamples(0, SigSeg<float>::copyOf(block, 200, &timebase));  // stored, partly among the newest 150
    window.addSamples(0, SigSeg<float>::copyOf(block, 300, &timebase));  // not stored yet
    // Held: [250, 400) and the whole pieces it touches. [0, 100) was among the newest when the
    // commit came, and is now stored and older, as [100, 200) is.

    const std::vector<ArchivedPiece> pieces = window.samples(0, 0, 1000);
    REQUIRE(pieces.size() == 2);
    CHECK(pieces[0].start == 200);
    CHECK(pieces[0].length == 100);
    CHECK(pieces[1].start == 300);
    CHECK(pieces[1].length == 100);
}
