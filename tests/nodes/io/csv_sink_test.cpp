// io.csv_sink: rows by time over several scalar streams, checked against the text written by hand,
// the same under every scheduler.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "engine/graph/graph_error.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

Item scalarAt(double value, std::int64_t start, std::int64_t length) { return Item::scalar(value, SampleRange{&Timebase::get(100), start, length}); }

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string writeCsv(const TempDir& dir, const std::string& names, const std::string& scheduler) {
    const json graph = {{"format", "isochron-graph/1"},
                        {"nodes", {{{"id", "a"}, {"type", "test.feed"}, {"params", {{"name", "a"}, {"type", "scalar"}}}},
                                   {{"id", "b"}, {"type", "test.feed"}, {"params", {{"name", "b"}, {"type", "scalar"}}}},
                                   {{"id", "csv"}, {"type", "io.csv_sink"}, {"params", {{"path", dir.file("out.csv")}, {"columns", 2}, {"names", names}}}}}},
                        {"edges", {{{"from", "a.out0"}, {"to", "csv.in0"}}, {{"from", "b.out0"}, {"to", "csv.in1"}}}}};
    // a: every 10 samples; b: at 0, 20 and 25 (and progress only through its items), in separate batches.
    feedScripts()["a"].batches = {{{0, scalarAt(1.5, 0, 10)}}, {{0, scalarAt(-2.0, 10, 10)}}, {{0, scalarAt(0.1, 20, 10)}}};
    feedScripts()["b"].batches = {{{0, scalarAt(7.0, 0, 10)}}, {{0, scalarAt(8.0, 20, 5)}}, {{0, scalarAt(9.0, 25, 5)}}};
    const RunOutcome outcome = runGraph(graph.dump(), scheduler);
    feedScripts().clear();
    REQUIRE(outcome.failures.empty());
    return readText(dir.file("out.csv"));
}

}  // namespace

TEST_CASE("io.csv_sink writes one row per time with a cell per input, the same under every scheduler", "[io][csv_sink]") {
    TempDir dir;
    const std::string expected =
        "t_start,t_end,level,\"peak \"\"dB\"\"\"\n"
        "0,0.1,1.5,7\n"
        "0.1,0.2,-2,\n"
        "0.2,0.3,0.1,8\n"
        "0.25,0.3,,9\n";
    for (const std::string& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        CHECK(writeCsv(dir, "level, peak \"dB\"", scheduler) == expected);
    }
}

TEST_CASE("io.csv_sink names its columns after the ports by default and refuses a wrong name count", "[io][csv_sink]") {
    TempDir dir;
    CHECK(writeCsv(dir, "", "df").starts_with("t_start,t_end,in0,in1\n"));
    CHECK_THROWS_WITH(writeCsv(dir, "only_one", "df"), Catch::Contains("node 'csv'") && Catch::Contains("1 name(s) for 2 column(s)"));
}

TEST_CASE("io.csv_sink refuses a named pipe at start, naming the node, the parameter and the path", "[io][csv_sink]") {
    // Opening a pipe for writing waits for a reader, in a call no stop request interrupts. A reader
    // is held open here so that, were the pipe accepted, the open would return and the run go on.
    TempDir dir;
    const std::string fifo = dir.file("out.csv");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    REQUIRE(reader >= 0);
    CHECK_THROWS_WITH(writeCsv(dir, "", "df"), Catch::Contains("node 'csv'") && Catch::Contains("parameter 'path'") &&
                                                   Catch::Contains("'" + fifo + "' is a named pipe (FIFO)"));
    feedScripts().clear();
    ::close(reader);
}
