// RankLineOutput: lines written in pieces by several threads at once reach the file whole, one
// write() each, every one starting with the rank.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <regex>
#include <set>
#include <thread>
#include <vector>

#include "app/run/rank_line_output.h"

TEST_CASE("lines printed in pieces by threads at once come out whole, each starting with the rank", "[mpi][lines]") {
    const std::filesystem::path path = std::filesystem::temp_directory_path() / ("isochron-rank-lines-" + std::to_string(getpid()) + ".txt");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    REQUIRE(fd >= 0);
    constexpr int kThreads = 4, kLines = 500;
    {
        isochron::run::RankLineOutput buffer(fd, "[rank 2] ");
        std::ostream stream(&buffer);
        stream.setf(std::ios::unitbuf);  // as std::cerr: a flush after every piece
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&stream, t] {
                for (int i = 0; i < kLines; ++i) stream << "thread " << t << " line " << i << " of " << kLines << '\n';
            });
        }
        for (auto& thread : threads) thread.join();
        stream << "unfinished";  // written when the buffer goes, with its newline
    }
    ::close(fd);
    std::ifstream in(path);
    const std::regex whole(R"(\[rank 2\] thread (\d) line (\d+) of 500)");
    std::set<std::pair<int, int>> seen;
    std::string line, last;
    while (std::getline(in, line)) {
        std::smatch match;
        if (std::regex_match(line, match, whole)) seen.insert({std::stoi(match[1]), std::stoi(match[2])});
        else last = line;
    }
    CHECK(seen.size() == kThreads * kLines);
    CHECK(last == "[rank 2] unfinished");
    std::filesystem::remove(path);
}
