// Two isochron-run processes recording one event stream into one archive at the same time (issue 13,
// S2), end to end. The second process has started (its io.archive_sink active, having found the
// stream empty) before the first records anything: its events come through a named pipe that the test
// fills only after the first process has stored them all. Before the fix the second stored every event
// again.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/wait.h>

#include "engine/archive/archive_store.h"
#include "tests/support/test_files.h"

using namespace isochron;

namespace {

using isochron::test::TempFolder;

constexpr int kEvents = 50;

/// JSON lines of kEvents events, one every 0.1 s, 10 ms long.
std::string eventLines() {
    std::string lines;
    for (int i = 0; i < kEvents; ++i) {
        lines += "{\"t_start\":" + std::to_string(i * 0.1) + ",\"t_end\":" + std::to_string(i * 0.1 + 0.01) +
                 ",\"kind\":\"event\",\"label\":\"e" + std::to_string(i) + "\",\"score\":1}\n";
    }
    return lines;
}

/// A graph recording the events of `events` (a file or a named pipe) into stream "events" of `archive`.
std::string writeGraph(const TempFolder& folder, const std::string& name, const std::string& events, const std::string& archive) {
    const std::string path = folder.file(name);
    std::ofstream(path) << R"({"format": "isochron-graph/1", "nodes": [)"
                        << R"({"id": "src", "type": "io.jsonl_event_source", "params": {"path": ")" << events << R"(", "rate": 1000}},)"
                        << R"({"id": "rec", "type": "io.archive_sink", "params": {"path": ")" << archive << R"(", "stream": "events"}}],)"
                        << R"("edges": [{"from": "src.out", "to": "rec.in0"}]})";
    return path;
}

}  // namespace

TEST_CASE("two isochron-run processes recording the same events into one stream at the same time store each event once", "[archive]") {
    TempFolder folder;
    const std::string archive = folder.file("shared.sqlite");
    const std::string file = folder.file("events.jsonl");
    const std::string pipe = folder.file("events.pipe");
    std::ofstream(file) << eventLines();
    REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
    const std::string first = writeGraph(folder, "first.isograph.json", file, archive);
    const std::string second = writeGraph(folder, "second.isograph.json", pipe, archive);

    // The second process: its "running" line comes once its nodes are active (the sink has read the
    // stream's stored end: nothing yet); then it waits for the pipe's events.
    FILE* secondOutput = ::popen((std::string(ISOCHRON_RUN_BINARY) + " " + second + " 2>&1").c_str(), "r");
    REQUIRE(secondOutput != nullptr);
    std::string output;
    char line[4096];
    while (output.find("running ") == std::string::npos && std::fgets(line, sizeof line, secondOutput) != nullptr) output += line;
    REQUIRE_THAT(output, Catch::Contains("running "));

    // The first process records every event and ends.
    const int firstStatus = std::system((std::string(ISOCHRON_RUN_BINARY) + " " + first + " --quiet").c_str());
    CHECK((WIFEXITED(firstStatus) && WEXITSTATUS(firstStatus) == 0));

    // Now the same events reach the second process, which ends when the pipe is closed.
    {
        std::ofstream writer(pipe);
        writer << eventLines();
    }
    while (std::fgets(line, sizeof line, secondOutput) != nullptr) output += line;
    const int secondStatus = ::pclose(secondOutput);
    INFO(output);
    CHECK((WIFEXITED(secondStatus) && WEXITSTATUS(secondStatus) == 0));
    CHECK_THAT(output, Catch::Contains("archive '" + archive + "', stream 'events': another recorder") && Catch::Contains("stored [0 s, "));

    ArchiveStore store(archive, ArchiveAccess::Read);
    const std::vector<ArchivedItem> items = store.getItems("events", 0, 10 * kEvents * 100);
    REQUIRE(items.size() == kEvents);  // before the fix: each twice
    for (int i = 0; i < kEvents; ++i) CHECK_THAT(items[static_cast<std::size_t>(i)].json, Catch::Contains("\"e" + std::to_string(i) + "\""));
}
