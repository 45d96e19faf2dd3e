// The condition language of rules: three-valued, parsed once at load.
//
//   expr    := or
//   or      := and ("or" and)*          Kleene logic: true or unknown = true
//   and     := not ("and" not)*         false and unknown = false
//   not     := "not" not | compare
//   compare := primary (op primary)?    op: == != < <= > >= in "not in"
//   primary := literal | path | call | list | "(" expr ")"
//   path    := name ("." name | "[" int "]")*     kernel.release, it.gfx
//   call    := name "(" expr ("," expr)* ")"      version_in_series(kernel.release, "6.8")
//   list    := "[" expr ("," expr)* "]"
//
// A fact that is unknown makes every comparison with it unknown, and a
// rule fires only when its condition is *true*. Ordering (< <= > >=) on two
// strings compares them as versions ("6.10" > "6.9"). `in` tests list
// membership, or a substring when the right side is a string.
// any(LIST, COND), all(LIST, COND) and count(LIST, COND) evaluate COND
// for each item with `it` bound to the item. In a for_each rule, `each` is
// the rule's item, also inside a quantifier where `it` is the inner item.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/fact.h"
#include "base/result.h"

namespace rocmdoc {

// A value or the reason it is unknown.
class Value {
 public:
  Value() = default;
  static Value of(Json j);  // {"unknown": why} becomes unknown
  static Value unknown(std::string why);
  bool is_unknown() const { return unknown_; }
  const std::string& why() const { return why_; }
  const Json& json() const { return json_; }
  bool is_true() const { return !unknown_ && json_.is_boolean() && json_.get<bool>(); }
  bool is_false() const { return !unknown_ && json_.is_boolean() && !json_.get<bool>(); }

 private:
  Json json_;
  bool unknown_ = false;
  std::string why_;
};

class Expr;
using ExprPtr = std::shared_ptr<const Expr>;

class EvalContext;

// A function conditions may call. Arguments arrive evaluated; unless
// `sees_unknown`, any unknown argument makes the call unknown before it runs.
struct Function {
  size_t min_args = 0;
  size_t max_args = 0;
  bool sees_unknown = false;
  std::function<Value(const std::vector<Value>& args, EvalContext& ctx)> call;
  // Checks an argument written as a literal while parsing: the error, or ""
  // when it is fine. A word the function knows only some values of
  // (rocm_releases_for_gfx's line) fails at load with its file:line, not as
  // an unknown at every run. Null: no literal is checked.
  std::function<std::string(size_t index, const Json& literal)> check_literal = nullptr;
};

// What names mean while parsing: the parser rejects unknown facts,
// functions, macros and lists, so a typo fails at load, not silently at run.
struct Vocabulary {
  // True when `path` ("kernel.release", "pci.gpus[].vendor") is a fact.
  std::function<bool(const std::string& path)> is_fact;
  const std::map<std::string, Function>* functions = nullptr;
  std::map<std::string, ExprPtr> macros;
  std::map<std::string, Json> lists;
};

struct ParseError {
  std::string message;
  size_t column = 1;  // 1-based, within the expression text
};

// Bounds on one condition with its macros written out, far above the
// built-in catalogue (docs/rules.md): a condition over them is a load error.
constexpr size_t kMaxConditionNodes = 100'000;
constexpr size_t kMaxConditionDepth = 256;
// Steps one evaluation context may take before every further step is
// unknown: quantifiers nested over long lists cannot hang a check.
constexpr size_t kMaxEvaluationSteps = 10'000'000;

// `item_path`: the schema path of `it` ("kfd.gpus[]") in a for_each rule,
// empty when `it` is not bound.
Result<ExprPtr> parse_expression(const std::string& text, const Vocabulary& vocabulary, const std::string& item_path,
                                 ParseError* error);

class EvalContext {
 public:
  EvalContext(const Json& facts, const std::map<std::string, Function>& functions) : facts_(facts), functions_(functions) {}
  const Json& facts() const { return facts_; }
  const Function* function(const std::string& name) const;
  // The current `it` (a stack: any() inside a for_each rule shadows it).
  const Json* item() const { return items_.empty() ? nullptr : items_.back(); }
  // The item of a for_each rule (`each`), which quantifiers inside the
  // condition do not shadow. Only the parser's checks keep `each` to for_each
  // rules, where that item is the first one pushed.
  const Json* rule_item() const { return items_.empty() ? nullptr : items_.front(); }
  void push_item(const Json* item) { items_.push_back(item); }
  void pop_item() { items_.pop_back(); }
  // Counts one evaluation step; false once kMaxEvaluationSteps are spent.
  bool spend_step() { return ++steps_ <= kMaxEvaluationSteps; }

 private:
  const Json& facts_;
  const std::map<std::string, Function>& functions_;
  std::vector<const Json*> items_;
  size_t steps_ = 0;
};

Value evaluate(const Expr& expr, EvalContext& ctx);

// The built-in functions (len, known, version_in_series, lower, ...).
// Matrix functions are added by the matrix (matrix.h).
std::map<std::string, Function> builtin_functions();

}  // namespace rocmdoc

namespace rocmdoc {

// The fact paths an expression reads, as written ("kernel.release",
// "it.gfx"), for the evidence a finding shows.
std::vector<std::string> referenced_paths(const Expr& expr);
// The texts an expression compares with, in its macros and lists too
// ("amdgpu-mes-timeout" of `it.id in ["amdgpu-mes-timeout", ...]`): check's
// text names the kernel-log signatures a finding is about by them.
std::vector<std::string> referenced_texts(const Expr& expr);
// A condition's node count and depth with its macros written out: what the
// load-time limits (kMaxConditionNodes, kMaxConditionDepth) bound.
struct ExpandedSize {
  size_t nodes = 0, depth = 0;
};
ExpandedSize expanded_size(const Expr& expr);
// What a blank left for an expression's unknown value stands for: a path as
// written ("it.gfx", "access.user.target"), a call by its function
// ("torch_index"), default(x, ...) by x, what it stands in for. Read from
// the parsed expression, so spacing and nesting in the rule do not matter.
std::string blank_subject(const Expr& expr);
// Evaluates one path as written ("it.path", "pci.gpus[0].name") without
// vocabulary checks: for placeholders in titles and fix commands.
Value evaluate_path(const std::string& path, EvalContext& ctx);

}  // namespace rocmdoc
