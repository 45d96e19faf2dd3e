#include "rules/expression.h"
#include "base/json_text.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "base/text.h"
#include "base/version.h"

namespace rocmdoc {

Value Value::of(Json j) {
  if (rocmdoc::is_unknown(j)) return Value::unknown(unknown_reason(j));
  Value v;
  v.json_ = std::move(j);
  return v;
}

Value Value::unknown(std::string why) {
  Value v;
  v.unknown_ = true;
  v.why_ = std::move(why);
  return v;
}

const Function* EvalContext::function(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : &it->second;
}

// ---------------------------------------------------------------- AST

struct PathStep {
  std::string key;  // empty for an index step
  long index = -1;
};

class Expr {
 public:
  enum class Kind { literal, path, call, list, negation, binary, quantifier };
  Kind kind = Kind::literal;
  Json literal;
  bool from_item = false;        // path starts at `it`
  bool from_rule_item = false;   // path starts at `each`: the for_each item, also inside any()/all()
  std::vector<PathStep> steps;   // path
  std::string text;              // path as written, for reasons
  std::string name;              // call, binary operator or quantifier
  // Operands; a chain `a and b and c` is one node with every term, so that
  // neither evaluating nor freeing a long chain recurses once per term.
  std::vector<ExprPtr> args;
  // The node count and depth with every macro it uses written out: what
  // evaluating it costs, and how deep evaluation recurses.
  size_t expanded = 1;
  size_t depth = 1;
};

namespace {

// ---------------------------------------------------------------- lexer

struct Token {
  enum Kind { end, name, number, string, op } kind = end;
  std::string text;
  size_t column = 1;
};

class Lexer {
 public:
  explicit Lexer(const std::string& s) : s_(s) {}

  Result<std::vector<Token>> run(ParseError* error) {
    std::vector<Token> out;
    out.reserve(s_.size() / 4 + 2);  // ~one token per 4-6 characters in the rules
    while (true) {
      while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
      Token t;
      t.column = i_ + 1;
      if (i_ >= s_.size()) {
        out.push_back(std::move(t));
        return Result<std::vector<Token>>::ok(std::move(out));
      }
      char c = s_[i_];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t j = i_;
        while (j < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[j])) || s_[j] == '_')) ++j;
        t.kind = Token::name, t.text = s_.substr(i_, j - i_), i_ = j;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t j = i_;
        while (j < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[j])) || s_[j] == '.')) ++j;
        t.kind = Token::number, t.text = s_.substr(i_, j - i_), i_ = j;
      } else if (c == '"' || c == '\'') {
        size_t j = i_ + 1;
        std::string value;
        while (j < s_.size() && s_[j] != c) {
          if (s_[j] == '\\' && j + 1 < s_.size()) ++j;
          value += s_[j++];
        }
        if (j >= s_.size()) return fail(error, "unterminated string", t.column);
        t.kind = Token::string, t.text = value, i_ = j + 1;
      } else {
        static constexpr std::string_view ops[] = {"==", "!=", "<=", ">=", "<", ">", "(", ")", "[", "]", ",", "."};
        bool matched = false;
        for (std::string_view op : ops) {
          if (std::string_view(s_).substr(i_, op.size()) == op) {
            t.kind = Token::op, t.text = op, i_ += t.text.size(), matched = true;
            break;
          }
        }
        if (!matched) return fail(error, std::string("unexpected character '") + c + "'", t.column);
      }
      out.push_back(std::move(t));
    }
  }

 private:
  static Result<std::vector<Token>> fail(ParseError* error, std::string message, size_t column) {
    if (error) *error = {message, column};
    return Result<std::vector<Token>>::fail(message);
  }
  const std::string& s_;
  size_t i_ = 0;
};

// ---------------------------------------------------------------- parser

struct ParseFailure {
  std::string message;
  size_t column;
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, const Vocabulary& vocabulary)
      : tokens_(std::move(tokens)), vocabulary_(vocabulary) {}

  ExprPtr parse_all(const std::string& item_path) {
    item_paths_.push_back(item_path);
    ExprPtr e = parse_or();
    if (peek().kind != Token::end) fail("unexpected '" + peek().text + "'", peek());
    return e;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  const Token& next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  // string_view, not const char*: these run for every token, and a view's
  // length is known, so most tests end at the size (no strlen, no memcmp).
  bool is_op(std::string_view op) const { return peek().kind == Token::op && peek().text == op; }
  bool is_word(std::string_view w) const { return peek().kind == Token::name && peek().text == w; }
  [[noreturn]] void fail(const std::string& message, const Token& at) { throw ParseFailure{message, at.column}; }
  void expect(std::string_view op) {
    if (!is_op(op))
      fail("expected '" + std::string(op) + "'" + (peek().kind == Token::end ? " at the end" : ""), peek());
    next();
  }

  // A macro is shared, not copied, into every condition that names it, so
  // macros that use each other twice over (m1 = m0 and m0, m2 = m1 and m1,
  // ...) parse in no time and evaluate in 2^n steps. Counting the expanded
  // size here refuses that where it is written.
  ExprPtr make(Expr e) {
    for (auto& a : e.args) {
      e.expanded += a->expanded;
      e.depth = std::max(e.depth, a->depth + 1);
      if (e.expanded > kMaxConditionNodes)
        fail("the condition is more than " + std::to_string(kMaxConditionNodes) +
                 " terms with its macros written out (macros that use each other more than once?)",
             peek());
    }
    if (e.depth > kMaxConditionDepth)
      fail("the condition is nested more than " + std::to_string(kMaxConditionDepth) +
               " levels deep with its macros written out",
           peek());
    return std::make_shared<const Expr>(std::move(e));
  }

  ExprPtr binary(std::string op, ExprPtr a, ExprPtr b) {
    Expr e;
    e.kind = Expr::Kind::binary;
    e.name = std::move(op);
    e.args = {std::move(a), std::move(b)};
    return make(std::move(e));
  }

  // `first op t2 op t3 ...` as one node (see Expr::args).
  template <class Term>
  ExprPtr chain(std::string_view op, Term term) {
    ExprPtr first = term();
    if (!is_word(op)) return first;
    Expr e;
    e.kind = Expr::Kind::binary;
    e.name = std::string(op);
    e.args.push_back(std::move(first));
    while (is_word(op)) next(), e.args.push_back(term());
    return make(std::move(e));
  }

  // Deep nesting in a rule file must be an error, not a stack overflow.
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > 64) p.fail("expression nested too deeply", p.peek());
    }
    ~DepthGuard() { --p.depth_; }
  };

  ExprPtr parse_or() {
    DepthGuard guard(*this);
    return chain("or", [this] { return parse_and(); });
  }

  ExprPtr parse_and() {
    return chain("and", [this] { return parse_not(); });
  }

  ExprPtr parse_not() {
    if (is_word("not")) {
      DepthGuard guard(*this);
      next();
      Expr e;
      e.kind = Expr::Kind::negation;
      e.args = {parse_not()};
      return make(std::move(e));
    }
    return parse_compare();
  }

  ExprPtr parse_compare() {
    ExprPtr left = parse_primary();
    static constexpr std::string_view ops[] = {"==", "!=", "<=", ">=", "<", ">"};
    for (std::string_view op : ops)
      if (is_op(op)) {
        next();
        return binary(std::string(op), left, parse_primary());
      }
    if (is_word("in")) {
      next();
      return binary("in", left, parse_primary());
    }
    if (is_word("not") && pos_ + 1 < tokens_.size() && tokens_[pos_ + 1].kind == Token::name &&
        tokens_[pos_ + 1].text == "in") {
      next(), next();
      return binary("not in", left, parse_primary());
    }
    return left;
  }

  ExprPtr parse_primary() {
    const Token& t = peek();
    if (t.kind == Token::string) {
      Expr e;
      e.literal = next().text;
      return make(std::move(e));
    }
    if (t.kind == Token::number) return parse_number();
    if (is_op("(")) {
      next();
      ExprPtr inner = parse_or();
      expect(")");
      return inner;
    }
    if (is_op("[")) return parse_list();
    if (t.kind == Token::name) return parse_name();
    fail(t.kind == Token::end ? "expression ends too early" : "unexpected '" + t.text + "'", t);
  }

  ExprPtr parse_number() {
    const Token& t = next();
    Expr e;
    if (auto n = parse_int(t.text)) e.literal = *n;
    else {
      // "6.8" as a number would lose "6.10" vs "6.1": versions are strings.
      fail("'" + t.text + "' is not a number; write versions as strings (\"" + t.text + "\")", t);
    }
    return make(std::move(e));
  }

  ExprPtr parse_list() {
    next();
    Expr e;
    e.kind = Expr::Kind::list;
    if (!is_op("]")) {
      e.args.push_back(parse_or());
      while (is_op(",")) next(), e.args.push_back(parse_or());
    }
    expect("]");
    return make(std::move(e));
  }

  ExprPtr parse_name() {
    const Token& t = next();
    if (t.text == "true" || t.text == "false") {
      Expr e;
      e.literal = t.text == "true";
      return make(std::move(e));
    }
    if (t.text == "null") return make(Expr{});
    if (is_op("(")) return parse_call(t);
    if (!is_op(".") && !is_op("[")) {
      if (auto m = vocabulary_.macros.find(t.text); m != vocabulary_.macros.end()) return m->second;
      if (auto l = vocabulary_.lists.find(t.text); l != vocabulary_.lists.end()) {
        Expr e;
        e.literal = l->second;
        return make(std::move(e));
      }
    }
    return parse_path(t);
  }

  ExprPtr parse_path(const Token& first) {
    Expr e;
    e.kind = Expr::Kind::path;
    e.text = first.text;
    e.from_item = first.text == "it";
    e.from_rule_item = first.text == "each";
    if (!e.from_item && !e.from_rule_item) e.steps.push_back({first.text, -1});
    while (is_op(".") || is_op("[")) {
      if (is_op(".")) {
        next();
        if (peek().kind != Token::name) fail("expected a name after '.'", peek());
        e.steps.push_back({next().text, -1});
        e.text += "." + e.steps.back().key;
      } else {
        next();
        if (peek().kind != Token::number || !parse_uint(peek().text)) fail("expected an index", peek());
        long index = static_cast<long>(*parse_uint(next().text));
        expect("]");
        e.steps.push_back({"", index});
        e.text += "[" + std::to_string(index) + "]";
      }
    }
    check_fact(e, first);
    return make(std::move(e));
  }

  // "pci.gpus[0].vendor" -> "pci.gpus[].vendor"; `it.x` -> item path + ".x".
  std::string schema_path(const Expr& e) const {
    std::string p = e.from_item ? item_paths_.back() : e.from_rule_item ? item_paths_.front() : "";
    for (auto& s : e.steps) {
      if (s.key.empty()) p += "[]";
      else p += (p.empty() ? "" : ".") + s.key;
    }
    return p;
  }

  void check_fact(const Expr& e, const Token& at) {
    if (e.from_rule_item) {
      if (item_paths_.front().empty()) fail("'each' is only bound in a for_each rule", at);
      if (item_paths_.front() == "*") return;
    }
    if (e.from_item && item_paths_.back().empty()) {
      if (item_paths_.size() == 1) fail("'it' is only bound inside any(), all(), count() or a for_each rule", at);
      return;  // items of a computed list: their shape is not known here
    }
    if (vocabulary_.is_fact && !vocabulary_.is_fact(schema_path(e)))
      fail("unknown fact '" + schema_path(e) + "' (see docs/facts.md)", at);
  }

  ExprPtr parse_call(const Token& name) {
    next();  // (
    bool quantifier = name.text == "any" || name.text == "all" || name.text == "count";
    Expr e;
    e.kind = quantifier ? Expr::Kind::quantifier : Expr::Kind::call;
    e.name = name.text;
    if (quantifier) {
      e.args.push_back(parse_or());
      expect(",");
      const Expr& list = *e.args[0];
      item_paths_.push_back(list.kind == Expr::Kind::path ? schema_path(list) + "[]" : "");
      e.args.push_back(parse_or());
      item_paths_.pop_back();
      expect(")");
      return make(std::move(e));
    }
    if (!is_op(")")) {
      e.args.push_back(parse_or());
      while (is_op(",")) next(), e.args.push_back(parse_or());
    }
    expect(")");
    const Function* fn = nullptr;
    if (vocabulary_.functions) {
      auto it = vocabulary_.functions->find(name.text);
      if (it != vocabulary_.functions->end()) fn = &it->second;
    }
    if (!fn) fail("unknown function '" + name.text + "'", name);
    if (e.args.size() < fn->min_args || e.args.size() > fn->max_args)
      fail(name.text + "() takes " + std::to_string(fn->min_args) +
               (fn->max_args != fn->min_args ? " to " + std::to_string(fn->max_args) : "") + " arguments, not " +
               std::to_string(e.args.size()),
           name);
    if (fn->check_literal)
      for (size_t i = 0; i < e.args.size(); ++i)
        if (e.args[i]->kind == Expr::Kind::literal)
          if (std::string error = fn->check_literal(i, e.args[i]->literal); !error.empty())
            fail(name.text + "(): " + error, name);
    return make(std::move(e));
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  const Vocabulary& vocabulary_;
  std::vector<std::string> item_paths_;
  int depth_ = 0;
};

// ---------------------------------------------------------------- evaluation

Value lookup(const Expr& e, EvalContext& ctx) {
  const Json* node = &ctx.facts();
  if (e.from_item) {
    node = ctx.item();
    if (!node) return Value::unknown("'it' is not bound here");
  } else if (e.from_rule_item) {
    node = ctx.rule_item();
    if (!node) return Value::unknown("'each' is not bound here");
  }
  std::string walked = e.from_item ? "it" : e.from_rule_item ? "each" : "";
  for (auto& step : e.steps) {
    if (is_unknown(*node)) return Value::unknown(walked + ": " + unknown_reason(*node));
    if (!step.key.empty()) {
      walked += (walked.empty() ? "" : ".") + step.key;
      if (node->is_null()) return Value::of(nullptr);
      if (!node->is_object() || !node->contains(step.key))
        return Value::unknown(walked + " is not in this facts document");
      node = &(*node)[step.key];
    } else {
      walked += "[" + std::to_string(step.index) + "]";
      if (!node->is_array() || static_cast<size_t>(step.index) >= node->size())
        return Value::unknown(walked + " does not exist");
      node = &(*node)[static_cast<size_t>(step.index)];
    }
  }
  if (is_unknown(*node)) return Value::unknown(e.text + ": " + unknown_reason(*node));
  return Value::of(*node);
}

Value logic(const std::string& op, const Value& a, const Value& b) {
  auto type_error = [&](const Value& v) {
    return Value::unknown("'" + op + "' needs true or false, not " + json_text(v.json()));
  };
  if (!a.is_unknown() && !a.json().is_boolean()) return type_error(a);
  if (!b.is_unknown() && !b.json().is_boolean()) return type_error(b);
  if (op == "and") {
    if (a.is_false() || b.is_false()) return Value::of(false);
  } else {
    if (a.is_true() || b.is_true()) return Value::of(true);
  }
  if (a.is_unknown()) return a;
  if (b.is_unknown()) return b;
  return Value::of(op == "and");
}

Value compare(const std::string& op, const Value& a, const Value& b) {
  if (a.is_unknown()) return a;
  if (b.is_unknown()) return b;
  const Json &x = a.json(), &y = b.json();
  if (op == "==") return Value::of(x == y);
  if (op == "!=") return Value::of(x != y);
  if (op == "in" || op == "not in") {
    bool found;
    if (y.is_array()) found = std::find(y.begin(), y.end(), x) != y.end();
    else if (y.is_string() && x.is_string()) found = y.get<std::string>().find(x.get<std::string>()) != std::string::npos;
    else if (y.is_null()) found = false;
    else return Value::unknown("'" + op + "' needs a list or a string on its right, not " + json_text(y));
    return Value::of(op == "in" ? found : !found);
  }
  int c;
  if (x.is_number() && y.is_number()) c = x.get<double>() < y.get<double>() ? -1 : x.get<double>() > y.get<double>() ? 1 : 0;
  else if (x.is_string() && y.is_string()) c = compare_versions(x.get<std::string>(), y.get<std::string>());
  else if (x.is_null() || y.is_null()) return Value::unknown("cannot order null");
  else return Value::unknown("cannot order " + json_text(x) + " and " + json_text(y));
  if (op == "<") return Value::of(c < 0);
  if (op == "<=") return Value::of(c <= 0);
  if (op == ">") return Value::of(c > 0);
  return Value::of(c >= 0);
}

Value quantify(const Expr& e, EvalContext& ctx) {
  Value list = evaluate(*e.args[0], ctx);
  if (list.is_unknown()) return list;
  if (list.json().is_null()) list = Value::of(Json::array());
  if (!list.json().is_array()) return Value::unknown(e.name + "() needs a list, not " + json_text(list.json()));
  size_t trues = 0, falses = 0;
  std::string unknown_why;
  for (auto& item : list.json()) {
    ctx.push_item(&item);
    Value v = evaluate(*e.args[1], ctx);
    ctx.pop_item();
    if (v.is_true()) ++trues;
    else if (v.is_false()) ++falses;
    else if (unknown_why.empty()) unknown_why = v.is_unknown() ? v.why() : "condition is not true or false";
  }
  bool some_unknown = !unknown_why.empty();
  if (e.name == "any") {
    if (trues) return Value::of(true);
    return some_unknown ? Value::unknown(unknown_why) : Value::of(false);
  }
  if (e.name == "all") {
    if (falses) return Value::of(false);
    return some_unknown ? Value::unknown(unknown_why) : Value::of(true);
  }
  if (some_unknown) return Value::unknown(unknown_why);
  return Value::of(trues);
}

Value call(const Expr& e, EvalContext& ctx) {
  const Function* fn = ctx.function(e.name);
  if (!fn) return Value::unknown("unknown function " + e.name);
  std::vector<Value> args;
  for (auto& a : e.args) {
    args.push_back(evaluate(*a, ctx));
    if (!fn->sees_unknown && args.back().is_unknown()) return args.back();
  }
  return fn->call(args, ctx);
}

}  // namespace

Value evaluate(const Expr& e, EvalContext& ctx) {
  // The load-time bounds keep one pass over a condition small, but nested
  // quantifiers multiply by the lengths of the facts' lists.
  if (!ctx.spend_step())
    return Value::unknown("the condition took more than " + std::to_string(kMaxEvaluationSteps) +
                          " steps to evaluate");
  switch (e.kind) {
    case Expr::Kind::literal: return Value::of(e.literal);
    case Expr::Kind::path: return lookup(e, ctx);
    case Expr::Kind::list: {
      Json out = Json::array();
      for (auto& a : e.args) {
        Value v = evaluate(*a, ctx);
        if (v.is_unknown()) return v;
        out.push_back(v.json());
      }
      return Value::of(out);
    }
    case Expr::Kind::negation: {
      Value v = evaluate(*e.args[0], ctx);
      if (v.is_unknown()) return v;
      if (!v.json().is_boolean()) return Value::unknown("'not' needs true or false, not " + json_text(v.json()));
      return Value::of(!v.json().get<bool>());
    }
    case Expr::Kind::binary: {
      bool is_and = e.name == "and";
      if (is_and || e.name == "or") {
        // Folded left to right, as (a and b) and c would be.
        Value acc = evaluate(*e.args[0], ctx);
        for (size_t i = 1; i < e.args.size(); ++i) {
          // Short-circuit only where Kleene logic allows it.
          if (is_and ? acc.is_false() : acc.is_true()) return acc;
          acc = logic(e.name, acc, evaluate(*e.args[i], ctx));
        }
        return acc;
      }
      Value a = evaluate(*e.args[0], ctx);
      Value b = evaluate(*e.args[1], ctx);
      return compare(e.name, a, b);
    }
    case Expr::Kind::quantifier: return quantify(e, ctx);
    case Expr::Kind::call: return call(e, ctx);
  }
  return Value::unknown("internal: unhandled expression");
}

Result<ExprPtr> parse_expression(const std::string& text, const Vocabulary& vocabulary, const std::string& item_path,
                                 ParseError* error) {
  auto tokens = Lexer(text).run(error);
  if (!tokens) return Result<ExprPtr>::fail(tokens.error());
  try {
    Parser parser(std::move(tokens.value()), vocabulary);
    return Result<ExprPtr>::ok(parser.parse_all(item_path));
  } catch (const ParseFailure& f) {
    if (error) *error = {f.message, f.column};
    return Result<ExprPtr>::fail(f.message);
  }
}

}  // namespace rocmdoc

namespace rocmdoc {

static void collect_paths(const Expr& e, std::vector<std::string>& out) {
  if (e.kind == Expr::Kind::path) {
    if (std::find(out.begin(), out.end(), e.text) == out.end()) out.push_back(e.text);
    return;
  }
  // Paths inside any()/all()/count() conditions refer to list items: the
  // list itself is the evidence.
  if (e.kind == Expr::Kind::quantifier) {
    collect_paths(*e.args[0], out);
    return;
  }
  for (auto& a : e.args) collect_paths(*a, out);
}

std::string blank_subject(const Expr& e) {
  if (e.kind == Expr::Kind::path) return e.text;
  if (e.kind == Expr::Kind::call && e.name == "default" && !e.args.empty()) return blank_subject(*e.args[0]);
  if (e.kind == Expr::Kind::call) return e.name;
  return "value";  // a literal, a list or a comparison: nothing more specific to name
}

ExpandedSize expanded_size(const Expr& expr) { return {expr.expanded, expr.depth}; }

std::vector<std::string> referenced_paths(const Expr& expr) {
  std::vector<std::string> out;
  collect_paths(expr, out);
  return out;
}

static void collect_texts(const Expr& e, std::vector<std::string>& out) {
  auto add = [&](const Json& j) {
    if (j.is_string() && std::find(out.begin(), out.end(), j.get<std::string>()) == out.end())
      out.push_back(j.get<std::string>());
  };
  if (e.kind == Expr::Kind::literal) {
    add(e.literal);
    if (e.literal.is_array())
      for (auto& item : e.literal) add(item);
  }
  for (auto& a : e.args) collect_texts(*a, out);
}

std::vector<std::string> referenced_texts(const Expr& expr) {
  std::vector<std::string> out;
  collect_texts(expr, out);
  return out;
}

Value evaluate_path(const std::string& path, EvalContext& ctx) {
  Vocabulary open;  // no checks: the loader already checked placeholders
  ParseError err;
  auto e = parse_expression(path, open, "*", &err);
  if (!e) return Value::unknown("bad placeholder {" + path + "}: " + err.message);
  return evaluate(**e, ctx);
}

}  // namespace rocmdoc
