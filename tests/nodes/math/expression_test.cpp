#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "nodes/math/expression_program.h"
#include "tests/nodes/channels/channel_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// The program's value for inputs a = in[0][i], b = in[1][i], ..., over `count` samples.
std::vector<float> evaluated(ExpressionProgram& program, const std::vector<std::vector<float>>& in, std::size_t count) {
    std::vector<const float*> inputs;
    for (const auto& input : in) inputs.push_back(input.data());
    std::vector<float> out(count);
    program.evaluate(inputs, static_cast<std::int64_t>(count), out.data());
    return out;
}

}  // namespace

TEST_CASE("expressions compile to programs whose values match the same formula written in C++", "[math][expression]") {
    const std::vector<std::vector<float>> in{noise(1000, 91, 3.0f), noise(1000, 92, 3.0f), noise(1000, 93, 3.0f)};
    struct Case {
        const char* text;
        std::function<float(float, float, float)> reference;
    };
    const std::vector<Case> cases{
        {"a*0.5 + b", [](float a, float b, float) { return a * 0.5f + b; }},
        {"a - b - c", [](float a, float b, float c) { return (a - b) - c; }},
        {"a / (b - c)", [](float a, float b, float c) { return a / (b - c); }},
        {"-a^2", [](float a, float, float) { return -std::pow(a, 2.0f); }},
        {"2^3^a", [](float a, float, float) { return std::pow(2.0f, std::pow(3.0f, a)); }},
        {"sqrt(a^2 + b^2)", [](float a, float b, float) { return std::sqrt(std::pow(a, 2.0f) + std::pow(b, 2.0f)); }},
        {"max(a, b) * min(b, c) + abs(c)", [](float a, float b, float c) { return std::max(a, b) * std::min(b, c) + std::fabs(c); }},
        {"atan2(a, b) + log10(abs(c)) - exp(-a) * tanh(b)",
         [](float a, float b, float c) { return std::atan2(a, b) + std::log10(std::fabs(c)) - std::exp(-a) * std::tanh(b); }},
        {"sin(2*pi*a) + cos(b) - tan(c/4) + floor(a) * ceil(b) + log(abs(a)) + pow(abs(b), c)",
         [](float a, float b, float c) {
             return std::sin(6.28318548f * a) + std::cos(b) - std::tan(c / 4.0f) + std::floor(a) * std::ceil(b) + std::log(std::fabs(a)) +
                    std::pow(std::fabs(b), c);
         }},
        {"1.5e-1 * (c + 2)", [](float, float, float c) { return 0.15f * (c + 2.0f); }},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        ExpressionProgram program = ExpressionProgram::compile(c.text);
        for (std::size_t count : {1u, 255u, 256u, 257u, 1000u}) {  // around the block size the program runs in
            const std::vector<float> got = evaluated(program, in, count);
            for (std::size_t i = 0; i < count; ++i) {
                const float expected = c.reference(in[0][i], in[1][i], in[2][i]);
                if (std::isnan(expected)) REQUIRE(std::isnan(got[i]));
                else REQUIRE(got[i] == Approx(expected).epsilon(1e-5).margin(1e-6));
            }
        }
        // Its text compiles back to the same program.
        CHECK(ExpressionProgram::compile(program.toText()).instructions() == program.instructions());
    }
}

TEST_CASE("an expression folds constants and counts the inputs it reads", "[math][expression]") {
    const ExpressionProgram folded = ExpressionProgram::compile("2 * 3 + a * (1 - 0.5)");
    CHECK(folded.instructions().size() == 5);  // 6, a, 0.5, *, +
    CHECK(folded.toText() == "6 + a * 0.5");
    CHECK(folded.inputsUsed() == 1);
    CHECK(ExpressionProgram::compile("c").inputsUsed() == 3);
    CHECK(ExpressionProgram::compile("4").inputsUsed() == 0);
    CHECK(ExpressionProgram::compile("-2").toText() == "-2");
    CHECK(ExpressionProgram::compile("(-2)^a - (b - c) / (a * b) - -(a + b)^2").toText() == "(-2) ^ a - (b - c) / (a * b) - -(a + b) ^ 2");
    CHECK(ExpressionProgram::compile("(a^b)^c + a^-b^c").toText() == "(a ^ b) ^ c + a ^ -b ^ c");
    CHECK(ExpressionProgram::compile("1/0 + a").instructions().size() == 5);  // inf is not folded: its text would not compile
    CHECK(ExpressionProgram::compile("(a + b)^2").instructions().back().code == ExpressionProgram::Code::Square);
    CHECK(ExpressionProgram::compile("(-a)^(1 + 1)").toText() == "(-a) ^ 2");
}

TEST_CASE("an expression that does not compile says what and where", "[math][expression]") {
    const std::vector<std::pair<const char*, const char*>> refused{
        {"a +", "ends where a value was expected at character 4"},
        {"a * (b", "expected ')'"},
        {"q", "'q' is neither an input (a to p), pi nor a function"},
        {"sqrt(a, b)", "expected ')' at character 7"},
        {"max(a)", "expected ','"},
        {"a b", "unexpected 'b' at character 3"},
        {"1e99", "too large for a float"},
        {"1..2", "'1..2' is not a number"},
        {"", "ends where a value was expected"},
        {"#", "expected a number, an input"},
    };
    for (const auto& [text, message] : refused) {
        INFO(text);
        CHECK_THROWS_WITH(ExpressionProgram::compile(text), Catch::Contains(message));
    }
    CHECK_THROWS_WITH(ExpressionProgram::compile(std::string(100, '(') + "a" + std::string(100, ')')), Catch::Contains("nested more than 64"));
    // Found by fuzz_expression: a NUL byte in the text ended the message before the position.
    CHECK_THROWS_WITH(ExpressionProgram::compile(std::string("a \0 b", 5)), Catch::Contains("unexpected '?' at character 3 of 'a ? b'"));
}

TEST_CASE("a long flat expression prints as text that compiles back (fuzz_expression regressions)", "[math][expression]") {
    std::string sum = "a";
    for (int i = 0; i < 200; ++i) sum += i % 2 ? " - b" : " + c * -a";
    const ExpressionProgram program = ExpressionProgram::compile(sum);
    CHECK(ExpressionProgram::compile(program.toText()).instructions() == program.instructions());
    // The size limit is on the program, not the text: a printed form with longer numbers and more
    // spaces than its source compiles too.
    std::string dense = "a";
    while (dense.size() < 5000) dense += "-1/3";
    const ExpressionProgram folded = ExpressionProgram::compile(dense);
    CHECK(folded.toText().size() > dense.size());
    CHECK(ExpressionProgram::compile(folded.toText()).instructions() == folded.instructions());
    std::string huge = "a";
    for (int i = 0; i < 2100; ++i) huge += "+b";
    CHECK_THROWS_WITH(ExpressionProgram::compile(huge), Catch::Contains("more than 4096 operations and values"));
    // Constants print as the shortest text that reads back as the same float, subnormal ones too.
    CHECK(ExpressionProgram::compile("0.1 + a").toText() == "0.1 + a");
    for (const char* tiny : {"1e-45 + a", "3e-41 * a", "1e-50 + a"}) {
        const ExpressionProgram p = ExpressionProgram::compile(tiny);
        CHECK(ExpressionProgram::compile(p.toText()).instructions() == p.instructions());
    }
}

TEST_CASE("math.expression combines aligned inputs through the engine", "[math][expression]") {
    const Timebase& tb = Timebase::get(16000);
    const std::vector<std::vector<float>> in{noise(3000, 94), noise(3000, 95), noise(3000, 96)};
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        feedScripts()["expr"] = randomlySplit(in, tb, 2);
        REQUIRE(runGraph(throughOperator("expr", "math.expression", R"({"inputs": 3, "expression": "a*0.5 + b*c"})", {"in0", "in1", "in2"},
                                         {"out"}),
                         scheduler)
                    .completed);
        const std::vector<float> got = contiguousSamples(collections()["expr"].items[0]);
        REQUIRE(got.size() == 3000);
        for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == in[0][i] * 0.5f + in[1][i] * in[2][i]);
        collections().clear();
    }
    CHECK_THROWS_WITH(runGraph(throughOperator("expr", "math.expression", R"({"inputs": 2, "expression": "a + c"})", {"in0", "in1"}, {"out"})),
                      Catch::Contains("reads input 'c' but the node has 2 input(s)"));
    feedScripts().clear();
    collections().clear();
}
