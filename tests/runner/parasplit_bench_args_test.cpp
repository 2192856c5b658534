// isochron-parasplit-bench's command line: usage on --help, and words that are no rates refused,
// both before any benchmark runs.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace {

struct Ran {
    int status;
    std::string output;  // standard output and standard error together
};

Ran runBench(const std::string& arguments) {
    const std::string command = std::string(ISOCHRON_PARASPLIT_BENCH_BINARY) + " " + arguments + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe);
    std::string output;
    char buffer[4096];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
    const int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace

TEST_CASE("isochron-parasplit-bench prints its usage for --help and refuses words that are no rates", "[runner][bench]") {
    // --help ran the benchmark; 'bogus' and '--desired 1e9' were read as numbers (0: desired 0 samples/s).
    const Ran help = runBench("--help");
    CHECK(help.status == 0);
    CHECK(help.output.starts_with("Usage: isochron-parasplit-bench [DESIRED_SAMPLES_PER_S [DESIRED_EVENTS_PER_S [REPEATS]]]"));
    CHECK(help.output.find("split (q = 4)") == std::string::npos);  // no benchmark ran

    const Ran bogus = runBench("bogus");
    CHECK(bogus.status == 1);
    CHECK(bogus.output == "isochron-parasplit-bench: DESIRED_SAMPLES_PER_S needs a number > 0, got 'bogus' (try --help)\n");

    const Ran option = runBench("--desired 1e9");
    CHECK(option.status == 1);
    CHECK(option.output == "isochron-parasplit-bench: unknown option '--desired' (try --help)\n");

    const Ran repeats = runBench("1e9 1e7 2.5");
    CHECK(repeats.status == 1);
    CHECK(repeats.output.find("REPEATS needs a whole number from 1 to 1000, got '2.5'") != std::string::npos);

    const Ran many = runBench("1 2 3 4");
    CHECK(many.status == 1);
    CHECK(many.output.find("at most three numbers are taken, got 4") != std::string::npos);
}
