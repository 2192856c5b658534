// ExpressionProgram: an arithmetic expression over input signals (`a*0.5 + b`, `sqrt(a^2 + b^2)`),
// compiled once into a postfix program that is evaluated over whole blocks of samples: each
// instruction runs one tight loop over a block, so the cost per sample is a few vectorised passes,
// not a tree walk or a parse.
//
// Grammar (whitespace is free):
//   expression := term (('+' | '-') term)*
//   term       := unary (('*' | '/') unary)*
//   unary      := '-' unary | power
//   power      := primary ('^' unary)?                      right-associative: a^b^c = a^(b^c)
//   primary    := number | input | 'pi' | function '(' expression (',' expression)* ')' | '(' expression ')'
//   input      := 'a' .. 'p'                                a is input 0, b input 1, ...
//   function   := abs sqrt exp log log10 sin cos tan tanh floor ceil (one argument) | min max pow atan2 (two)
// Arithmetic is in float, as in C (x/0 is inf, sqrt(-1) NaN). Sub-expressions of constants are folded
// when their value is finite, and x ^ 2 becomes x * x.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace isochron {

/// A compiled expression and its evaluation buffers. [value type; one thread at a time]
class ExpressionProgram {
public:
    /// What one postfix instruction does.
    enum class Code : std::uint8_t {
        Input, Constant, Negate, Add, Subtract, Multiply, Divide, Power, Abs, Sqrt, Exp, Log, Log10, Sin, Cos, Tan, Tanh,
        Floor, Ceil, Min, Max, Atan2,
        Square,  ///< x ^ 2, compiled to x * x (pow per sample is ten times slower)
    };
    /// One postfix instruction: push an input or a constant, or replace the top operand(s) by a result.
    struct Instruction {
        Code code;
        int input = 0;        ///< Input: which one
        float constant = 0;   ///< Constant: its value
        bool operator==(const Instruction& other) const;  ///< constants compared bit for bit
    };

    /// Compile `text`. Throws std::invalid_argument saying what is wrong and at which character.
    /// [any thread] [allocates]
    static ExpressionProgram compile(std::string_view text);

    /// The postfix instructions.
    const std::vector<Instruction>& instructions() const { return code_; }
    /// Inputs the expression reads: one more than the highest input it names (0 for a constant).
    int inputsUsed() const { return inputsUsed_; }
    /// The expression as text with only the parentheses it needs, which compiles back to this program. [allocates]
    std::string toText() const;

    /// out[i] = the expression with input k = inputs[k][i], for i < count. `inputs` has at least
    /// inputsUsed() pointers, each to `count` samples. [no allocation]
    void evaluate(std::span<const float* const> inputs, std::int64_t count, float* out);

private:
    std::vector<Instruction> code_;
    int inputsUsed_ = 0;
    int maxDepth_ = 0;
    std::vector<float> registers_;               // maxDepth_ blocks of kBlock samples
    std::vector<const float*> operands_;         // the stack: where each operand's block is
};

}  // namespace isochron
