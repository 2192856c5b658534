#include "nodes/math/expression_program.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace isochron {
namespace {

/// Samples evaluated per pass: the operand blocks stay in the L1 cache.
constexpr std::int64_t kBlock = 256;
/// Largest program and deepest nesting accepted (bounds on its size and on the parser's recursion).
/// Both are properties of the program, not of its spelling, so the printed form of an accepted
/// program is accepted too.
constexpr std::size_t kMaxInstructions = 4096;
constexpr int kMaxNesting = 64;

using Code = ExpressionProgram::Code;

/// `text` for a message: bytes that are not printable ASCII (a NUL would end the message) shown as '?'.
std::string printable(std::string_view text) {
    std::string shown(text);
    for (char& c : shown) {
        if (c < ' ' || c > '~') c = '?';
    }
    return shown;
}

struct FunctionName {
    std::string_view name;
    Code code;
    int arguments;
};
constexpr FunctionName kFunctions[] = {
    {"abs", Code::Abs, 1},     {"sqrt", Code::Sqrt, 1}, {"exp", Code::Exp, 1},     {"log", Code::Log, 1},
    {"log10", Code::Log10, 1}, {"sin", Code::Sin, 1},   {"cos", Code::Cos, 1},     {"tan", Code::Tan, 1},
    {"tanh", Code::Tanh, 1},   {"floor", Code::Floor, 1}, {"ceil", Code::Ceil, 1}, {"min", Code::Min, 2},
    {"max", Code::Max, 2},     {"pow", Code::Power, 2}, {"atan2", Code::Atan2, 2},
};

int arity(Code code) {
    switch (code) {
        case Code::Input:
        case Code::Constant: return 0;
        case Code::Add:
        case Code::Subtract:
        case Code::Multiply:
        case Code::Divide:
        case Code::Power:
        case Code::Min:
        case Code::Max:
        case Code::Atan2: return 2;
        default: return 1;
    }
}

float apply(Code code, float x) {
    switch (code) {
        case Code::Negate: return -x;
        case Code::Abs: return std::fabs(x);
        case Code::Sqrt: return std::sqrt(x);
        case Code::Exp: return std::exp(x);
        case Code::Log: return std::log(x);
        case Code::Log10: return std::log10(x);
        case Code::Sin: return std::sin(x);
        case Code::Cos: return std::cos(x);
        case Code::Tan: return std::tan(x);
        case Code::Tanh: return std::tanh(x);
        case Code::Floor: return std::floor(x);
        case Code::Ceil: return std::ceil(x);
        case Code::Square: return x * x;
        default: return x;
    }
}

float apply(Code code, float x, float y) {
    switch (code) {
        case Code::Add: return x + y;
        case Code::Subtract: return x - y;
        case Code::Multiply: return x * y;
        case Code::Divide: return x / y;
        case Code::Power: return std::pow(x, y);
        case Code::Min: return std::min(x, y);
        case Code::Max: return std::max(x, y);
        case Code::Atan2: return std::atan2(x, y);
        default: return x;
    }
}

/// Recursive-descent parser emitting postfix code, folding constant operands as it goes.
class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    std::vector<ExpressionProgram::Instruction> parse() {
        expression();
        skipSpace();
        if (position_ < text_.size()) fail("unexpected '" + printable(text_.substr(position_, 1)) + "'");
        return std::move(code_);
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument(what + " at character " + std::to_string(position_ + 1) + " of '" + printable(text_) + "'");
    }
    void skipSpace() {
        while (position_ < text_.size() && (text_[position_] == ' ' || text_[position_] == '\t' || text_[position_] == '\n')) ++position_;
    }
    bool accept(char c) {
        skipSpace();
        if (position_ < text_.size() && text_[position_] == c) {
            ++position_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) fail(std::string("expected '") + c + "'");
    }

    struct Nesting {
        explicit Nesting(Parser& parser) : parser_(parser) {
            if (++parser_.nesting_ > kMaxNesting) parser_.fail("nested more than " + std::to_string(kMaxNesting) + " deep");
        }
        ~Nesting() { --parser_.nesting_; }
        Parser& parser_;
    };

    void expression() {
        Nesting nested(*this);
        term();
        for (;;) {
            if (accept('+')) { term(); operation(Code::Add); }
            else if (accept('-')) { term(); operation(Code::Subtract); }
            else return;
        }
    }
    void term() {
        unary();
        for (;;) {
            if (accept('*')) { unary(); operation(Code::Multiply); }
            else if (accept('/')) { unary(); operation(Code::Divide); }
            else return;
        }
    }
    void unary() {
        Nesting nested(*this);
        if (accept('-')) {
            unary();
            operation(Code::Negate);
            return;
        }
        primary();
        if (accept('^')) {
            unary();
            operation(Code::Power);
        }
    }
    void primary() {
        skipSpace();
        if (position_ >= text_.size()) fail("the expression ends where a value was expected");
        const char c = text_[position_];
        if (accept('(')) {
            expression();
            expect(')');
            return;
        }
        if ((c >= '0' && c <= '9') || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c))) return name();
        fail("expected a number, an input (a, b, ...), a function or '('");
    }
    void number() {
        const std::size_t start = position_;
        while (position_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[position_])) || text_[position_] == '.')) ++position_;
        if (position_ < text_.size() && (text_[position_] == 'e' || text_[position_] == 'E')) {
            std::size_t exponent = position_ + 1;
            if (exponent < text_.size() && (text_[exponent] == '+' || text_[exponent] == '-')) ++exponent;
            if (exponent < text_.size() && std::isdigit(static_cast<unsigned char>(text_[exponent]))) {
                position_ = exponent;
                while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) ++position_;
            }
        }
        const std::string_view spelled = text_.substr(start, position_ - start);
        const char* last = spelled.data() + spelled.size();
        float value = 0;  // read as a float directly: what toText() prints reads back exactly
        auto [end, error] = std::from_chars(spelled.data(), last, value);
        if (error == std::errc::result_out_of_range && end == last) {
            // Below the smallest float (zero or subnormal) or above the largest: the double tells which.
            double wide = 0;
            const auto [wideEnd, wideError] = std::from_chars(spelled.data(), last, wide);
            const bool tiny = wideError == std::errc() ? std::fabs(wide) < 1.0 : spelled.find("e-") != std::string_view::npos || spelled.find("E-") != std::string_view::npos;
            if (!tiny) {
                position_ = start;
                fail("'" + std::string(spelled) + "' is too large for a float");
            }
            value = static_cast<float>(wide);
            error = std::errc();
        }
        if (error != std::errc() || end != last) {
            position_ = start;
            fail("'" + std::string(spelled) + "' is not a number");
        }
        push({Code::Constant, 0, value});
    }
    void name() {
        const std::size_t start = position_;
        while (position_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[position_])) || text_[position_] == '_')) ++position_;
        const std::string_view word = text_.substr(start, position_ - start);
        for (const FunctionName& function : kFunctions) {
            if (word != function.name) continue;
            expect('(');
            for (int argument = 0; argument < function.arguments; ++argument) {
                if (argument > 0) expect(',');
                expression();
            }
            expect(')');
            operation(function.code);
            return;
        }
        if (word == "pi") {
            push({Code::Constant, 0, std::numbers::pi_v<float>});
            return;
        }
        if (word.size() == 1 && word[0] >= 'a' && word[0] <= 'p') {
            push({Code::Input, word[0] - 'a', 0.0f});
            return;
        }
        position_ = start;
        fail("'" + std::string(word) + "' is neither an input (a to p), pi nor a function");
    }

    /// Append `code`, or fold it into a constant when its operands are constants and the result is
    /// finite; a power of the constant 2 becomes a square.
    void operation(Code code) {
        if (code == Code::Power && code_.back().code == Code::Constant && code_.back().constant == 2.0f && code_[code_.size() - 2].code != Code::Constant) {
            code_.back() = {Code::Square, 0, 0.0f};
            return;
        }
        const int operands = arity(code);
        const std::size_t size = code_.size();
        const bool constantOperands = std::all_of(code_.end() - operands, code_.end(), [](const auto& i) { return i.code == Code::Constant; });
        if (constantOperands) {
            const float value = operands == 1 ? apply(code, code_[size - 1].constant)
                                              : apply(code, code_[size - 2].constant, code_[size - 1].constant);
            if (std::isfinite(value)) {
                code_.resize(size - static_cast<std::size_t>(operands));
                code_.push_back({Code::Constant, 0, value});
                return;
            }
        }
        push({code, 0, 0.0f});
    }

    void push(ExpressionProgram::Instruction instruction) {
        if (code_.size() >= kMaxInstructions) fail("the expression has more than " + std::to_string(kMaxInstructions) + " operations and values");
        code_.push_back(instruction);
    }

    std::string_view text_;
    std::size_t position_ = 0;
    int nesting_ = 0;
    std::vector<ExpressionProgram::Instruction> code_;
};

std::string_view symbol(Code code) {
    switch (code) {
        case Code::Add: return " + ";
        case Code::Subtract: return " - ";
        case Code::Multiply: return " * ";
        case Code::Divide: return " / ";
        case Code::Power: return " ^ ";
        default: break;
    }
    for (const FunctionName& function : kFunctions) {
        if (function.code == code) return function.name;
    }
    return "";
}

/// A constant as text that compiles back to the same float (a negative one as "-x").
std::string constantText(float value) {
    char buffer[32];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value));  // the shortest text that reads back as it
    std::string text(std::signbit(value) ? "-" : "");
    text.append(buffer, error == std::errc() ? end : buffer);
    return text;
}

}  // namespace

bool ExpressionProgram::Instruction::operator==(const Instruction& other) const {
    return code == other.code && input == other.input && std::bit_cast<std::uint32_t>(constant) == std::bit_cast<std::uint32_t>(other.constant);
}

ExpressionProgram ExpressionProgram::compile(std::string_view text) {
    ExpressionProgram program;
    program.code_ = Parser(text).parse();
    int depth = 0;
    for (const Instruction& instruction : program.code_) {
        depth += 1 - arity(instruction.code);
        program.maxDepth_ = std::max(program.maxDepth_, depth);
        if (instruction.code == Code::Input) program.inputsUsed_ = std::max(program.inputsUsed_, instruction.input + 1);
    }
    program.registers_.resize(static_cast<std::size_t>(program.maxDepth_ * kBlock));
    program.operands_.resize(static_cast<std::size_t>(program.maxDepth_));
    return program;
}

std::string ExpressionProgram::toText() const {
    // Each operand's text with its precedence (the grammar's levels), so parentheses go only where
    // the grammar needs them: printed text never nests deeper than the text it was compiled from.
    enum Precedence { Sum = 1, Product = 2, Unary = 3, Raised = 4, Atom = 5 };
    struct Operand {
        std::string text;
        int precedence;
    };
    // (Appending rather than "(" + text: GCC 12 warns wrongly about overlapping copies in the latter.)
    auto wrapped = [](const Operand& operand, bool parenthesise) {
        return parenthesise ? std::string("(").append(operand.text).append(")") : operand.text;
    };
    std::vector<Operand> stack;
    for (const Instruction& instruction : code_) {
        switch (instruction.code) {
            case Code::Input: stack.push_back({std::string(1, static_cast<char>('a' + instruction.input)), Atom}); continue;
            case Code::Constant:
                stack.push_back({constantText(instruction.constant), std::signbit(instruction.constant) ? Unary : Atom});
                continue;
            case Code::Negate: stack.back() = {std::string("-").append(wrapped(stack.back(), stack.back().precedence < Unary)), Unary}; continue;
            default: break;
        }
        if (instruction.code == Code::Square) {
            stack.back() = {wrapped(stack.back(), stack.back().precedence <= Raised) + " ^ 2", Raised};
            continue;
        }
        const std::string name(symbol(instruction.code));
        if (arity(instruction.code) == 1) {
            stack.back() = {name + "(" + stack.back().text + ")", Atom};
            continue;
        }
        const Operand right = std::move(stack.back());
        stack.pop_back();
        Operand& left = stack.back();
        if (name.front() != ' ') {
            left = {name + "(" + left.text + ", " + right.text + ")", Atom};
            continue;
        }
        const int precedence = instruction.code == Code::Power ? Raised
                               : (instruction.code == Code::Add || instruction.code == Code::Subtract) ? Sum
                                                                                                        : Product;
        // '^' is right-associative and its exponent may be a unary minus; the others are left-associative.
        const bool leftNeeds = precedence == Raised ? left.precedence <= Raised : left.precedence < precedence;
        const bool rightNeeds = precedence == Raised ? right.precedence < Unary : right.precedence <= precedence;
        left = {wrapped(left, leftNeeds) + name + wrapped(right, rightNeeds), precedence};
    }
    return stack.back().text;
}

void ExpressionProgram::evaluate(std::span<const float* const> inputs, std::int64_t count, float* out) {
    for (std::int64_t done = 0; done < count; done += kBlock) {
        const std::int64_t n = std::min(kBlock, count - done);
        int depth = 0;
        for (const Instruction& instruction : code_) {
            float* result = registers_.data() + static_cast<std::ptrdiff_t>(depth - arity(instruction.code)) * kBlock;
            switch (instruction.code) {
                case Code::Input:
                    operands_[static_cast<std::size_t>(depth++)] = inputs[static_cast<std::size_t>(instruction.input)] + done;
                    continue;
                case Code::Constant:
                    std::fill_n(result, n, instruction.constant);
                    operands_[static_cast<std::size_t>(depth++)] = result;
                    continue;
                default: break;
            }
            if (arity(instruction.code) == 1) {
                const float* x = operands_[static_cast<std::size_t>(depth - 1)];
                // One loop per code: the switch is decided once per block, not once per sample.
                switch (instruction.code) {
                    case Code::Negate: for (std::int64_t i = 0; i < n; ++i) result[i] = -x[i]; break;
                    case Code::Abs: for (std::int64_t i = 0; i < n; ++i) result[i] = std::fabs(x[i]); break;
                    case Code::Sqrt: for (std::int64_t i = 0; i < n; ++i) result[i] = std::sqrt(x[i]); break;
                    case Code::Square: for (std::int64_t i = 0; i < n; ++i) result[i] = x[i] * x[i]; break;
                    default: for (std::int64_t i = 0; i < n; ++i) result[i] = apply(instruction.code, x[i]); break;
                }
                operands_[static_cast<std::size_t>(depth - 1)] = result;
                continue;
            }
            const float* x = operands_[static_cast<std::size_t>(depth - 2)];
            const float* y = operands_[static_cast<std::size_t>(depth - 1)];
            switch (instruction.code) {
                case Code::Add: for (std::int64_t i = 0; i < n; ++i) result[i] = x[i] + y[i]; break;
                case Code::Subtract: for (std::int64_t i = 0; i < n; ++i) result[i] = x[i] - y[i]; break;
                case Code::Multiply: for (std::int64_t i = 0; i < n; ++i) result[i] = x[i] * y[i]; break;
                case Code::Divide: for (std::int64_t i = 0; i < n; ++i) result[i] = x[i] / y[i]; break;
                default: for (std::int64_t i = 0; i < n; ++i) result[i] = apply(instruction.code, x[i], y[i]); break;
            }
            operands_[static_cast<std::size_t>(--depth - 1)] = result;
        }
        std::copy_n(operands_[0], n, out + done);
    }
}

}  // namespace isochron
