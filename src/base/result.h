// A value or the reason there is none. Probes use it so that "could not
// read" always travels with a human-readable why, never as a bare bool.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace rocmdoc {

template <typename T>
class Result {
 public:
  static Result ok(T value) { return Result(std::move(value), {}); }
  static Result fail(std::string why) { return Result(std::nullopt, std::move(why)); }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const T& value() const { return *value_; }
  T& value() { return *value_; }
  const T& operator*() const { return *value_; }
  const T* operator->() const { return &*value_; }
  // Why there is no value; empty when ok().
  const std::string& error() const { return error_; }
  T value_or(T fallback) const { return value_ ? *value_ : std::move(fallback); }

 private:
  Result(std::optional<T> v, std::string e) : value_(std::move(v)), error_(std::move(e)) {}
  std::optional<T> value_;
  std::string error_;
};

}  // namespace rocmdoc
